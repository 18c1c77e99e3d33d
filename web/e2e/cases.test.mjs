// Against the real binary: a post added from its card to a new case with a note, a comment on
// the case page, and the case exported as a ZIP whose manifest lists its report and the post;
// the case page is checked for accessibility in the light and the dark theme.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { accessibilityViolations, apiSession, closeAll, signedInBrowser, startServer } from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);

describe('Cases', () => {
  let server;
  let browser;
  let page;
  let api;

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    api = await apiSession(server);
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'Harbour strikes',
      keywords: 'harbour',
      providers: ['reddit'],
    });
    const response = await fetch(`${server.url}/api/v1/ingest/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${api.token}` },
      body: JSON.stringify([
        {
          provider: 'reddit',
          native_id: `case-e2e-${process.pid}`,
          content_type: 'thread_post',
          author_name: 'Dockworker',
          content_text: 'Strike at the harbour of Rotterdam tomorrow at dawn.',
          published_at: new Date(Date.now() - 60_000).toISOString(),
          post_link: 'https://example.com/r/1',
        },
      ]),
    });
    assert.equal(response.status, 200, await response.text());
    for (let i = 0; ; i++) {
      const counts = await api.call('GET', '/api/v1/monitor/matches/counts');
      if (counts.totalCount === 1) break;
      assert.ok(i < 100, `matches: ${JSON.stringify(counts)}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('adds a post to a new case, comments, and exports the case', async () => {
    await page.goto(`${server.url}/monitor/matches/list`);
    await page.getByRole('button', { name: 'Add to case' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add to case' });
    await dialog.getByLabel('New case name').fill('Harbour strike');
    await dialog.getByLabel('Note').fill('Names the harbour and the time.');
    assert.deepEqual(await accessibilityViolations(page), []);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Added to the case “Harbour strike”.').waitFor();

    await page.getByRole('link', { name: 'Cases' }).click();
    await page.getByRole('table', { name: 'Cases' }).getByRole('link', { name: 'Harbour strike' }).click();
    await page.getByRole('heading', { name: 'Harbour strike', level: 1 }).waitFor();
    const item = page.getByRole('article', { name: /^Item 1:/ });
    await item.getByText('Strike at the harbour of Rotterdam').waitFor();
    assert.equal(await item.getByLabel('Note').inputValue(), 'Names the harbour and the time.');

    const comment = page.getByRole('combobox', { name: 'Comment' });
    await comment.fill('Checked with the port. @adm');
    await page.getByRole('listbox', { name: 'Colleagues to mention' }).waitFor();
    await comment.press('Enter');
    assert.match(await comment.inputValue(), /^Checked with the port\. @\S+ $/);
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page
      .getByRole('article', { name: /^Comment by / })
      .getByText('Checked with the port.')
      .waitFor();
    await page
      .getByRole('list', { name: 'Timeline' })
      .getByText(/commented/)
      .waitFor();
    await page.screenshot({ path: new URL('case-page.png', shots).pathname, fullPage: true });
    assert.deepEqual(await accessibilityViolations(page), []);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export case' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^case-\d+-\d{8}-\d{6}\.zip$/);
    const dir = await mkdtemp(join(tmpdir(), 'sightline-case-zip-'));
    try {
      const zip = join(dir, 'case.zip');
      await download.saveAs(zip);
      await promisify(execFile)('unzip', ['-q', zip, '-d', join(dir, 'x')]);
      const manifest = JSON.parse(await readFile(join(dir, 'x', 'manifest.json'), 'utf8'));
      assert.equal(manifest.format, 'sightline-evidence/1');
      const names = manifest.files.map((f) => f.name);
      for (const name of ['report.html', 'items/1/post.json']) assert.ok(names.includes(name), names.join());
      for (const f of manifest.files) {
        const sum = createHash('sha256')
          .update(await readFile(join(dir, 'x', f.name)))
          .digest('hex');
        assert.equal(sum, f.sha256, f.name);
      }
      const report = await readFile(join(dir, 'x', 'report.html'), 'utf8');
      assert.match(report, /Names the harbour and the time\./);
      assert.match(report, /Checked with the port\./);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is accessible in the dark theme', async () => {
    await api.call('PATCH', '/api/v1/settings/profile/update/display-theme', { display_theme: 'dark' });
    await page.goto(`${server.url}/cases`);
    await page.getByRole('table', { name: 'Cases' }).getByRole('link', { name: 'Harbour strike' }).click();
    await page.getByRole('heading', { name: 'Harbour strike', level: 1 }).waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.screenshot({ path: new URL('case-page-dark.png', shots).pathname, fullPage: true });
  });
});
