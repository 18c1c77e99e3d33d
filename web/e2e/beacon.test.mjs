// Beacon end to end, in Chromium against the real binary: a search finds ingested posts, tabs
// switch, more results load, a result is flagged and listed under Flagged, the lowercase and/or
// warning shows, the history runs a search again, the word cloud adds a word to the search, an
// author's name opens their profile, and the builder's Test in Beacon link opens Beacon with
// results.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { DEADLINE_MS, apiSession, closeAll, signedInBrowser, startServer } from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);
const POSTS = 30; // more than one page of 25
// Thirty ports, one a post: posts naming different places are different events (stories.md).
const PLACES = ['Rotterdam', 'Hamburg', 'Antwerp', 'Valencia', 'Genoa', 'Gdansk', 'Piraeus', 'Marseille', 'Lisbon', 'Barcelona',
  'Naples', 'Dublin', 'Oslo', 'Helsinki', 'Riga', 'Tallinn', 'Istanbul', 'Alexandria', 'Casablanca', 'Lagos',
  'Mombasa', 'Durban', 'Mumbai', 'Singapore', 'Shanghai', 'Busan', 'Sydney', 'Vancouver', 'Halifax', 'Santos'];
const EVENTS = ['jammed during the night shift', 'inspected after a storm warning'];
const CAUSES = ['a hydraulic leak', 'strong winds', 'a power cut'];
const CARGO = ['grain silos', 'container stacks', 'tanker moorings', 'ferry ramps', 'fishing quays'];

describe('Beacon', () => {
  let server;
  let cardsOnFirstPage = 0;
  let cardsOfAll = 0;
  let browser;
  let page;

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    const api = await apiSession(server);
    const now = Date.now();
    const posts = Array.from({ length: POSTS }, (_, i) => ({
      provider: i % 3 === 0 ? 'telegram' : 'reddit',
      native_id: `beacon-e2e-${process.pid}-${i}`,
      content_type: 'thread_post',
      author_name: `Harbour watcher ${i % 4}`,
      title_text: i === 0 ? 'Crane collapse at the harbour' : undefined,
      // Thirty different events, so that no two are copies of one story (Beacon folds those).
      content_text: `${PLACES[i % PLACES.length]} harbour: crane ${EVENTS[i % EVENTS.length]} near the ${CARGO[i % CARGO.length]}, blamed on ${CAUSES[i % CAUSES.length]}, berth ${i + 1}.`,
      published_at: new Date(now - i * 60_000).toISOString(),
      post_link: `https://example.com/harbour/${i}`,
    }));
    posts.push({
      provider: 'tor',
      native_id: `beacon-e2e-${process.pid}-tor`,
      content_type: 'thread_post',
      author_name: 'vendor',
      content_text: 'Harbour crane schematics for sale',
      published_at: new Date(now).toISOString(),
    });
    await api.call('POST', '/api/v1/ingest/posts', posts);
    // The pipeline stores them in the background: wait until the search finds them all.
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const page1 = await api.call('POST', '/beacon/v1/all', { query: 'harbour crane' });
      if (page1.totalCount === POSTS + 1) {
        // Copies of one story fold under its first post (stories.md): one card a story.
        cardsOnFirstPage = new Set(page1.documents.map((p) => p.storyId ?? p.id)).size;
        const all = await api.call('POST', '/beacon/v1/all', { query: 'harbour crane', size: 100 });
        cardsOfAll = new Set(all.documents.map((p) => p.storyId ?? p.id)).size;
        break;
      }
      if (Date.now() > deadline) throw new Error(`only ${page1.totalCount} posts were found`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('searches from the home page, loads more and switches tabs', async () => {
    await page.goto(`${server.url}/beacon`);
    await page.getByRole('textbox', { name: 'Search posts' }).fill('harbour and crane');
    await page.getByText('Write the operators AND and OR in capitals', { exact: false }).first().waitFor();
    await page.screenshot({ path: new URL('beacon-help.png', shots).pathname });
    await page.getByRole('textbox', { name: 'Search posts' }).fill('harbour crane');
    await page.getByRole('button', { name: 'Search', exact: true }).click();

    await page.waitForURL(/\/beacon\/results\?q=harbour\+crane/);
    const results = page.getByRole('list', { name: 'Search results' });
    await page.getByText(`${POSTS + 1} results in Results`).waitFor();
    assert.ok(cardsOnFirstPage > 20, `${cardsOnFirstPage} stories among the first 25 posts`);
    assert.equal(await results.getByRole('article').count(), cardsOnFirstPage);
    await page.screenshot({ path: new URL('beacon-results.png', shots).pathname });
    await page.getByRole('button', { name: 'Load more' }).click();
    await results.getByRole('article').nth(cardsOfAll - 1).waitFor();
    assert.equal(await results.getByRole('article').count(), cardsOfAll);

    await page.getByRole('tab', { name: 'Dark Web' }).click();
    await page.getByText('1 result in Dark Web').waitFor();
    assert.match(await results.getByRole('article').first().textContent(), /schematics/);
    await page.getByRole('tab', { name: 'Breaches' }).click();
    await page.getByText('No posts in Breaches match').waitFor();
  });

  it('flags a result and lists it under Flagged', async () => {
    await page.getByRole('tab', { name: 'Social' }).click();
    const first = page.getByRole('list', { name: 'Search results' }).getByRole('article').first();
    await first.getByRole('button', { name: 'Flag for export' }).click();
    await page.getByText('Flagged for export').waitFor();
    await first.getByRole('button', { name: 'Remove flag' }).waitFor();
    await page.getByRole('tab', { name: 'Flagged' }).click();
    await page.getByText('flagged post, most recently flagged first').waitFor();
    assert.match(
      await page.getByRole('list', { name: 'Search results' }).getByRole('article').first().textContent(),
      /Crane collapse at the harbour/,
    );
    await page.screenshot({ path: new URL('beacon-flagged.png', shots).pathname });
    await page.getByRole('button', { name: 'Clear all flags' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Clear all flags' }).click();
    await page.getByText('No flagged posts').waitFor();
  });

  it('lists the search in the history and runs it again', async () => {
    await page.goto(`${server.url}/history`);
    const row = page.getByRole('table', { name: 'Search history' }).getByRole('row', { name: /harbour crane/ });
    await row.first().waitFor();
    await page.screenshot({ path: new URL('beacon-history.png', shots).pathname });
    await row.first().getByRole('link', { name: /Run/ }).click();
    await page.getByText(`${POSTS + 1} results in Results`).waitFor();
  });

  it('shows the word cloud of the results and adds a word to the search', async () => {
    await page.goto(`${server.url}/beacon/results?q=harbour+crane`);
    await page.getByText(`${POSTS + 1} results in Results`).waitFor();
    await page.getByRole('button', { name: 'Analytics' }).click();
    await page.getByRole('button', { name: `crane, in ${POSTS + 1} results: add to the search` }).waitFor();
    await page.getByRole('img', { name: /^Results per day/ }).waitFor();
    await page.screenshot({ path: new URL('beacon-analytics.png', shots).pathname });
    await page.getByRole('button', { name: `berth, in ${POSTS} results: add to the search` }).click();
    await page.waitForURL(/q=harbour\+crane\+berth/);
    await page.getByText(`${POSTS} results in Results`).waitFor();
  });

  it('opens an author’s profile from their name on a card', async () => {
    await page.goto(`${server.url}/beacon/results?q=harbour+crane`);
    await page.getByRole('link', { name: 'Harbour watcher 1', exact: true }).first().click();
    await page.waitForURL(/\/beacon\/author\?name=Harbour\+watcher\+1/);
    await page.getByRole('heading', { name: 'Harbour watcher 1' }).waitFor();
    // Posts 1, 5, 9 … of the 30 are by watcher 1.
    await page.getByText('All 8 of their results in the last 30 days.').waitFor();
    await page.getByRole('img', { name: /^Their 200 most recent results by data source/ }).waitFor();
    await page.getByRole('img', { name: /^Their most recent results by hour of the day/ }).waitFor();
    await page.getByRole('button', { name: 'crane, in 8 results: add to the search' }).waitFor();
    assert.equal(await page.getByRole('list', { name: 'Search results' }).getByRole('article').count(), 8);
    await page.screenshot({ path: new URL('beacon-author.png', shots).pathname });
  });

  it('opens from the builder’s Test in Beacon link with results', async () => {
    await page.goto(`${server.url}/monitor/dashboard`);
    await page.getByRole('button', { name: 'New saved search' }).click();
    const builder = page.getByRole('dialog', { name: 'New saved search' });
    await builder.getByLabel('Keywords').fill('crane');
    const link = builder.getByRole('link', { name: /Test in Beacon/ });
    const href = await link.getAttribute('href');
    await page.keyboard.press('Escape');
    await page.goto(`${server.url}${href}`);
    await page.waitForURL(/\/beacon\/results/);
    await page.getByRole('list', { name: 'Search results' }).getByRole('article').first().waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Search posts' }).inputValue(), 'crane');
  });
});
