// Customize: a layout saved in the editor is the dashboard's after a reload; Discard restores.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { apiSession, closeAll, signedInBrowser, startServer } from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);

describe('Customize the dashboard', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    // The dashboard shows its widgets once there is a saved search.
    const api = await apiSession(server);
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'Harbour',
      keywords: 'harbour',
      providers: ['reddit'],
    });
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  const widgetsOf = (row) =>
    page
      .getByRole('list', { name: `Widgets of row ${row}` })
      .getByRole('listitem')
      .allTextContents();

  it('saves a layout that survives a reload', async () => {
    await page.goto(`${server.url}/monitor/dashboard`);
    await page.getByRole('navigation', { name: 'Monitor' }).getByRole('link', { name: 'Customize' }).click();
    await page.getByRole('heading', { level: 1, name: 'Customize the dashboard' }).waitFor();
    assert.deepEqual(await widgetsOf(1), ['Results', 'Unread results', 'New results (last 24 hours)']);

    await page.getByRole('button', { name: 'Remove row 6' }).click(); // the threat score
    await page.getByRole('button', { name: 'Remove New results (last 24 hours)' }).click();
    await page.screenshot({ path: new URL('customize.png', shots).pathname });
    await page.getByRole('button', { name: 'Save layout' }).click();
    await page.getByText('Dashboard layout saved').waitFor();

    await page.goto(`${server.url}/monitor/dashboard`);
    await page.reload();
    await page.getByRole('region', { name: 'Results per day (30 days)' }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Threat score' }).count(), 0);
    assert.equal(await page.getByRole('region', { name: 'New results (last 24 hours)' }).count(), 0);
  });

  it('discards changes back to the saved layout', async () => {
    await page.goto(`${server.url}/monitor/customize`);
    await page.getByRole('button', { name: 'Remove row 1' }).click();
    assert.deepEqual(await widgetsOf(1), ['Spikes (7 days)', 'Trending in your matches (last hour)']);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    assert.deepEqual(await widgetsOf(1), ['Results', 'Unread results']);
  });
});
