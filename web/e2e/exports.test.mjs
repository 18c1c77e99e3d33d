// Against the real binary: an export of the inbox's matches requested in the export dialog,
// the in-progress and ready toasts, the exports page, and the downloaded CSV's content.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { accessibilityViolations, apiSession, closeAll, signedInBrowser, startServer } from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);

describe('Exports', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    const api = await apiSession(server);
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'Harbour strikes',
      keywords: 'harbour',
      providers: ['reddit'],
    });
    const posts = [1, 2, 3].map((n) => ({
      provider: 'reddit',
      native_id: `export-e2e-${process.pid}-${n}`,
      content_type: 'thread_post',
      author_name: `Dockworker ${n}`,
      content_text: `Strike at the harbour, day ${n}.`,
      published_at: new Date(Date.now() - n * 60_000).toISOString(),
      post_link: `https://example.com/r/${n}`,
    }));
    const response = await fetch(`${server.url}/api/v1/ingest/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${api.token}` },
      body: JSON.stringify(posts),
    });
    assert.equal(response.status, 200, await response.text());
    // The percolator stores the matches within moments.
    for (let i = 0; ; i++) {
      const counts = await api.call('GET', '/api/v1/monitor/matches/counts');
      if (counts.totalCount === 3) break;
      assert.ok(i < 100, `matches: ${JSON.stringify(counts)}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('exports the inbox to CSV, says when it is ready and downloads it', async () => {
    await page.goto(`${server.url}/monitor/matches/list`);
    await page.getByRole('status').filter({ hasText: '3 matches' }).waitFor();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export posts' });
    await dialog.getByText('every match of this inbox (3 posts)').waitFor();
    await dialog.getByRole('checkbox', { name: 'Author screen name' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Title' }).uncheck();
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.screenshot({ path: new URL('export-dialog.png', shots).pathname });
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();

    const ready = page.getByText(/Your export is ready\. The link is valid for 29 days/);
    await ready.waitFor();
    await page.screenshot({ path: new URL('export-ready.png', shots).pathname });
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await ready.waitFor({ state: 'hidden' });

    await page.getByRole('link', { name: 'Exports' }).click();
    const table = page.getByRole('table', { name: 'Exports' });
    await table.getByText('Ready').waitFor();
    await page.screenshot({ path: new URL('exports-page.png', shots).pathname });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      table.getByRole('link', { name: /^Download/ }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^sightline-export-\d+\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const [header, ...rows] = csv.trim().split('\n');
    assert.equal(header, 'id,provider,authorName,contentText,createdAt,postLink,matchedTerms,searchName');
    assert.equal(rows.length, 3);
    assert.match(csv, /Strike at the harbour, day 1\./);
    assert.match(csv, /Dockworker 2/);
    assert.match(csv, /Harbour strikes/);
  });
});
