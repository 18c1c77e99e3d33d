// The post card's states end to end, against the real binary: a post the provider deleted
// (reported through POST /api/v1/ingest/deletions) says so above what was kept, and its picture
// that does not load says so in its place; light and dark are axe-clean. Screenshots go to
// docs/screenshots/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DEADLINE_MS,
  accessibilityViolations,
  apiSession,
  closeAll,
  launchBrowser,
  signIn,
  startServer,
} from './harness.mjs';

const docsShots = new URL('../../docs/screenshots/', import.meta.url);
const NATIVE = `deleted-e2e-${process.pid}`;

describe('Post states', () => {
  let server;
  let api;

  before(async () => {
    server = await startServer();
    api = await apiSession(server);
    await api.call('POST', '/api/v1/ingest/posts', [
      {
        provider: 'reddit',
        native_id: NATIVE,
        content_type: 'thread_post',
        author_name: 'Harbour watch',
        author_screen_name: 'harbourwatch',
        title_text: 'Tanker aground outside the harbour mouth',
        content_text:
          'A tanker ran aground on the sandbank outside the harbour mouth this morning. Tugs are on their way; no leak reported so far.',
        published_at: new Date(Date.now() - 40 * 60_000).toISOString(),
        post_link: 'https://example.com/r/harbour/tanker',
        // An address that does not answer: the card shows the broken-picture state.
        photos: [{ large: 'https://192.0.2.10/tanker.jpg' }],
      },
    ]);
    const deadline = Date.now() + DEADLINE_MS;
    while ((await api.call('POST', '/beacon/v1/all', { query: 'tanker' })).totalCount !== 1) {
      if (Date.now() > deadline) throw new Error('the post was not stored');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const reply = await api.call('POST', '/api/v1/ingest/deletions', [{ provider: 'reddit', native_id: NATIVE }]);
    assert.deepEqual(reply, { deleted: 1, rejected: [], rejectedCount: 0 });
  });

  after(() => server?.stop());

  for (const colorScheme of ['light', 'dark']) {
    it(`says the provider deleted the post, keeps what was collected, and says the picture is unavailable (${colorScheme})`, async () => {
      const browser = await launchBrowser({ colorScheme });
      try {
        const page = await browser.context.newPage();
        await page.goto(`${server.url}/login`);
        await signIn(page);
        await page.goto(`${server.url}/beacon/results?q=tanker`);
        const card = page.getByRole('list', { name: 'Search results' }).getByRole('article').first();
        await card.getByText('Post deleted by the provider').waitFor();
        await card.getByText('Kept as it was collected').waitFor();
        await card.getByText('Tanker aground outside the harbour mouth').waitFor();
        await card.getByText('Image unavailable').waitFor();
        await card.scrollIntoViewIfNeeded();
        await card.screenshot({
          path: new URL(`post-deleted-${colorScheme}.png`, docsShots).pathname,
          animations: 'disabled',
        });
        assert.deepEqual(await accessibilityViolations(page), []);
      } finally {
        await closeAll(browser, undefined);
      }
    });
  }
});
