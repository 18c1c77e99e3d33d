// The assistant end to end, in Chromium against the real binary: posts ingested through the API,
// a question asked in the drawer, the answer citing them, its sources viewed and one opened; axe
// on every state.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import {
  DEADLINE_MS,
  accessibilityViolations,
  apiSession,
  closeAll,
  signedInBrowser,
  startServer,
} from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);

describe('Assistant', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    const api = await apiSession(server);
    const now = Date.now();
    const texts = [
      'Dockers extended the harbour strike at the container terminal into a second day. Ships wait offshore.',
      'Police watched the harbour strike near the terminal gates. Nobody was arrested.',
      'My cat sleeps all day on the sofa.',
    ];
    await api.call(
      'POST',
      '/api/v1/ingest/posts',
      texts.map((text, i) => ({
        provider: 'reddit',
        native_id: `assistant-e2e-${process.pid}-${i}`,
        content_type: 'thread_post',
        author_name: `Harbour watcher ${i}`,
        content_text: text,
        language: 'en',
        published_at: new Date(now - (i + 1) * 60_000).toISOString(),
        post_link: `https://example.com/harbour/${i}`,
      })),
    );
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const found = await api.call('POST', '/beacon/v1/all', { query: 'harbour OR cat' });
      if (found.totalCount === texts.length) break;
      if (Date.now() > deadline) throw new Error(`only ${found.totalCount} posts were stored`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('answers with citations, shows the sources and opens one', async () => {
    await page.goto(`${server.url}/beacon`);
    await page.getByRole('button', { name: 'Assistant' }).click();
    const drawer = page.getByRole('dialog', { name: 'Assist' });
    await drawer.getByText('Ask about the last 7 days of posts').waitFor();
    await page.screenshot({ path: new URL('assistant-empty.png', shots).pathname });
    assert.deepEqual(await accessibilityViolations(page), []);

    const input = drawer.getByRole('textbox', { name: 'Your question' });
    await input.fill('What is happening with the harbour strike?');
    await drawer.getByRole('button', { name: 'Ask' }).click();
    assert.equal(await input.inputValue(), '');
    const log = drawer.getByRole('log', { name: 'Conversation with the assistant' });
    await log.getByRole('button', { name: 'Source 2' }).waitFor();
    const answer = await log.textContent();
    assert.match(answer, /harbour strike/);
    assert.doesNotMatch(answer, /cat sleeps/);
    await page.screenshot({ path: new URL('assistant-answer.png', shots).pathname });
    assert.deepEqual(await accessibilityViolations(page), []);

    await drawer.getByRole('button', { name: /^View Sources/ }).click();
    const sources = drawer.getByRole('region', { name: 'Sources of the answer' });
    await sources.getByRole('button', { name: /^\[1\] Harbour watcher/ }).waitFor();
    await page.screenshot({ path: new URL('assistant-sources.png', shots).pathname });
    assert.deepEqual(await accessibilityViolations(page), []);

    await sources.getByRole('button', { name: /^\[1\] Harbour watcher/ }).click();
    await sources.getByRole('button', { name: 'Back to sources' }).waitFor();
    await sources.getByRole('button', { name: 'Original post' }).waitFor();
    await page.screenshot({ path: new URL('assistant-source.png', shots).pathname });
    assert.deepEqual(await accessibilityViolations(page), []);
    await sources.getByRole('button', { name: 'Back to sources' }).click();
    await sources.getByRole('button', { name: /^\[2\] Harbour watcher/ }).waitFor();

    // An unrelated question gets the apology.
    await input.fill('Who won the football league?');
    await input.press('Enter');
    await log.getByText('Sorry, the documents contain no information about this.', { exact: false }).waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
  });

  it('analyses an English post of more than ten words, and says why not for a shorter one', async () => {
    await page.goto(`${server.url}/beacon/results?q=harbour+OR+cat`);
    const results = page.getByRole('list', { name: 'Search results' });
    const strike = results.getByRole('article').filter({ hasText: 'Dockers extended' });
    await strike.getByRole('button', { name: 'Analyze' }).click();
    const dialog = page.getByRole('dialog', { name: /^Analysis of the post by Harbour watcher 0/ });
    await dialog.getByRole('heading', { name: /^Threat score/ }).waitFor();
    await dialog.getByText('Dockers extended the harbour strike', { exact: false }).waitFor();
    await page.screenshot({ path: new URL('assistant-analysis.png', shots).pathname });
    assert.deepEqual(await accessibilityViolations(page), []);
    await dialog.getByRole('button', { name: 'Close' }).click();

    const cat = results.getByRole('article').filter({ hasText: 'My cat sleeps' });
    await cat.getByRole('button', { name: 'Analyze' }).click();
    await page.getByText('Analysis needs an English post of more than 10 words.').waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
  });
});
