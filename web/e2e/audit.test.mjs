// Against the real binary: a saved search's keywords edited, the change found in the tenant
// portal's audit logs with its previous and new keywords, filtered by model and downloaded as
// CSV; an announcement published there and read by another user from the top bar's badge.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import {
  accessibilityViolations,
  apiSession,
  closeAll,
  launchBrowser,
  runSightline,
  signIn,
  signedInBrowser,
  startServer,
} from './harness.mjs';

const READER_EMAIL = 'reader@example.test';
const READER_PASSWORD = `reader-${process.pid}-pass`;
const shots = new URL('../../bin/e2e-shots/', import.meta.url).pathname;

describe('Audit logs and announcements', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it("shows a saved search's keyword change with the previous and new keywords, filters and downloads it", async () => {
    const api = await apiSession(server);
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    const search = await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'River levels',
      keywords: 'flood',
      providers: ['reddit'],
    });
    await api.call('PUT', `/api/v1/monitor/searches/${search.id}`, {
      group_id: home.id,
      name: 'River levels',
      keywords: 'flood OR inondation',
      providers: ['reddit'],
    });
    await api.call('PATCH', '/api/v1/settings/profile/update/display-theme', { display_theme: 'dark' });

    await page.goto(`${server.url}/tenant/audit-logs`);
    const table = page.getByRole('table', { name: 'Audit logs' });
    const edit = table
      .getByRole('row')
      .filter({ hasText: 'keywords: flood OR inondation' })
      .filter({ hasText: 'updated' });
    await edit.waitFor();
    assert.match(await edit.textContent(), /keywords: flood(?! OR).*keywords: flood OR inondation/);
    await table.getByRole('row').filter({ hasText: 'display theme: dark' }).waitFor();
    await page.screenshot({ path: `${shots}audit-logs.png`, fullPage: true });

    await page.getByRole('combobox', { name: 'Model' }).click();
    await page.getByRole('option', { name: 'search', exact: true }).click();
    await page.waitForURL(/model=search/);
    await table.getByRole('row').filter({ hasText: 'display theme' }).waitFor({ state: 'detached' });
    const models = [];
    for (const row of (await table.getByRole('row').all()).slice(1)) {
      models.push(await row.getByRole('cell').nth(1).textContent());
    }
    assert.ok(models.length >= 2);
    assert.ok(
      models.every((m) => m.startsWith('search')),
      models.join(', '),
    );
    assert.deepEqual(await accessibilityViolations(page), []);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^audit-logs-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split('\n');
    assert.match(
      lines[0],
      /^date,model,model_id,action,user_id,user_name,user_email,organization,previous_value,new_value/,
    );
    assert.ok(
      lines.slice(1).every((l) => /^[^,]+,search,/.test(l)),
      csv,
    );
    assert.match(csv, /"\{""keywords"":""flood""\}","\{""keywords"":""flood OR inondation""\}"/);
  });

  it('publishes an announcement that another user sees with an unread badge in the top bar', async () => {
    await runSightline(server.dataDir, [
      'user',
      'create',
      '--org',
      'Default',
      '--email',
      READER_EMAIL,
      '--password',
      READER_PASSWORD,
    ]);
    await page.goto(`${server.url}/tenant/announcements`);
    await page.getByText('Nothing published').waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Maintenance on Sunday');
    await page.getByRole('textbox', { name: 'Message' }).fill('Sightline is read-only from 02:00 to 03:00 UTC.');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('article', { name: 'Maintenance on Sunday' }).waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.screenshot({ path: `${shots}announcements.png`, fullPage: true });

    const readerBrowser = await launchBrowser();
    try {
      const reader = await readerBrowser.context.newPage();
      await reader.goto(`${server.url}/login`);
      await signIn(reader, { email: READER_EMAIL, password: READER_PASSWORD });
      const bell = reader.getByRole('button', { name: 'Announcements, 1 unread' });
      await bell.waitFor();
      await bell.click();
      const popover = reader.getByRole('dialog', { name: 'Announcements' });
      await popover.getByText('Sightline is read-only from 02:00 to 03:00 UTC.').waitFor();
      await popover.getByText('New').waitFor();
      assert.deepEqual(await accessibilityViolations(reader), []);
      await reader.screenshot({ path: `${shots}announcements-popover.png` });
      await reader.keyboard.press('Escape');
      await reader.getByRole('button', { name: 'Announcements', exact: true }).waitFor();

      // The tenant portal does not exist for anyone but tenant admins.
      await reader.goto(`${server.url}/tenant/audit-logs`);
      await reader.getByText('You seem lost').waitFor();
    } finally {
      await readerBrowser.close();
    }
  });
});
