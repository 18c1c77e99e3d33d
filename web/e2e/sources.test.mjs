// Against the real binary: a loopback RSS feed added as a source at /sources (Test shows the
// preview, Save stores it), its posts found in Beacon, its failures shown in the health panel
// and the top bar, and the source disabled. The server starts with no default sources
// (SIGHTLINE_SOURCES=none in the harness): nothing here reaches the internet.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DEADLINE_MS,
  accessibilityViolations,
  apiSession,
  closeAll,
  listen,
  signedInBrowser,
  startServer,
} from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);
const WORD = 'zephyrquake';

/**
 * A feed whose items carry WORD, counting its requests per path; mode '500' makes it answer
 * Internal Server Error.
 */
async function startFeed() {
  const state = { mode: 'ok', requests: 0, byPath: new Map() };
  const feed = createServer((request, response) => {
    state.requests++;
    const path = new URL(request.url, 'http://feed').pathname;
    state.byPath.set(path, (state.byPath.get(path) ?? 0) + 1);
    if (state.mode === '500') {
      response.writeHead(500).end('down');
      return;
    }
    const items = [1, 2, 3]
      .map(
        (i) =>
          `<item><title>Harbour ${WORD} report ${i}</title><guid>loopback-${i}</guid>` +
          `<link>https://news.example.org/loopback/${i}</link>` +
          `<pubDate>${new Date(Date.now() - i * 60_000).toUTCString()}</pubDate>` +
          `<description>Protest at the harbour gates, report ${i}.</description></item>`,
      )
      .join('');
    response.writeHead(200, { 'Content-Type': 'application/rss+xml' });
    response.end(
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Loopback wire</title>${items}</channel></rss>`,
    );
  });
  return { feed, state, url: `http://127.0.0.1:${await listen(feed)}/rss` };
}

/** Polls done until it holds, for at most DEADLINE_MS. */
async function waitUntil(done, what) {
  const deadline = Date.now() + DEADLINE_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${DEADLINE_MS} ms`);
    await sleep(50);
  }
}

async function assertAccessible(page, where) {
  const violations = await accessibilityViolations(page);
  assert.deepEqual(violations, [], `${where}: ${JSON.stringify(violations, null, 2)}`);
}

describe('Sources', () => {
  let server;
  let browser;
  let page;
  let loopback;

  before(async () => {
    loopback = await startFeed();
    server = await startServer({ env: { SIGHTLINE_ALLOW_PRIVATE_NETWORKS: 'on' } });
    ({ browser, page } = await signedInBrowser(server));
  });

  after(async () => {
    try {
      await closeAll(browser, server);
    } finally {
      // Even when closing failed: an open feed keeps the test process running.
      loopback?.feed.close();
    }
  });

  it('starts with no sources: the defaults are off in tests', async () => {
    const api = await apiSession(server);
    assert.deepEqual(await api.call('GET', '/api/v1/sources'), []);
    await page.goto(`${server.url}/sources`);
    await page.getByText('No sources').waitFor();
    await assertAccessible(page, '/sources empty');
  });

  it('adds a loopback feed: Test previews its items, Save stores it and its posts reach Beacon', async () => {
    await page.getByRole('button', { name: 'Add source' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add source' });
    await dialog.getByLabel('Name').fill('Loopback wire');
    await dialog.getByLabel('Feed address').fill(loopback.url);
    // An RSS source fetches at most once a minute (docs/connectors.md, floors); it fetches at
    // once when saved.
    await dialog.getByLabel('Fetch every').fill('1m');
    await dialog.getByRole('button', { name: 'Test' }).click();
    await dialog.getByText('3 posts would be stored', { exact: false }).waitFor();
    await dialog.getByText(`Harbour ${WORD} report 1`).waitFor();
    await assertAccessible(page, 'Add source with a preview');
    await page.screenshot({ path: new URL('sources-preview.png', shots).pathname });

    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Loopback wire/ });
    await row.getByText('OK', { exact: true }).waitFor();

    await page.goto(`${server.url}/beacon/results?q=${WORD}`);
    await page.getByText(/3 results in Results/).waitFor();
    await assertAccessible(page, 'Beacon results of the new source');
  });

  it('shows a failing source in the health panel and the top bar, and disables it', async () => {
    loopback.state.mode = '500';
    // An edited source fetches at once, so the failures come without waiting out its interval.
    const api = await apiSession(server);
    const [source] = await api.call('GET', '/api/v1/sources');
    await api.call('PATCH', `/api/v1/sources/${source.id}`, { name: source.name });
    await page.goto(`${server.url}/sources`);
    const row = page.getByRole('row', { name: /Loopback wire/ });
    await row.getByText('Failing', { exact: true }).waitFor();
    await row.getByText(/500 Internal Server Error/).waitFor();
    await page.getByText(/One source that worked has stopped/).waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'Sources: 1 failing' }).waitFor();
    await assertAccessible(page, '/sources with a failing source');
    await page.screenshot({ path: new URL('sources-failing.png', shots).pathname, fullPage: true });

    await page.getByLabel('Enable Loopback wire').click();
    await page
      .getByRole('row', { name: /Loopback wire/ })
      .getByText('Disabled', { exact: true })
      .waitFor();
    const before = loopback.state.byPath.get('/rss');
    // Whether a source runs is settled when the sources are reconciled, on a change: edit the
    // disabled source (an enabled one would fetch at once, as above), then add an enabled one
    // at another path of the feed. Once that one has fetched, the change that would have made
    // the disabled source fetch has been acted on, and it has not fetched.
    const [disabled] = await api.call('GET', '/api/v1/sources');
    await api.call('PATCH', `/api/v1/sources/${disabled.id}`, { name: 'Loopback wire (off)' });
    loopback.state.mode = 'ok';
    const control = loopback.url.replace(/\/rss$/, '/control');
    await api.call('POST', '/api/v1/sources', {
      type: disabled.type,
      name: 'Control wire',
      config: JSON.parse(JSON.stringify(disabled.config).replaceAll(loopback.url, control)),
    });
    await waitUntil(() => loopback.state.byPath.get('/control') > 0, 'the enabled source fetches');
    assert.equal(loopback.state.byPath.get('/rss'), before, 'a disabled source fetches nothing');
    const health = await api.call('GET', '/api/v1/sources/health');
    assert.equal(
      health.sources.find((h) => h.name === 'Loopback wire (off)')?.state,
      'disabled',
      JSON.stringify(health),
    );
    assert.equal(health.failing, 0);
  });
});
