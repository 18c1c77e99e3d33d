// The assistant end to end, in Chromium against the real binary: posts ingested through the API,
// a question asked in the drawer, the answer citing them, its sources viewed and one opened, the
// answer rated and a related search asked; axe on every state, in the light and the dark theme.
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
  let api;

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    api = await apiSession(server);
    const now = Date.now();
    const texts = [
      'Dockers extended the harbour strike at the container terminal into a second day. Ships wait offshore.',
      'Police watched the harbour strike near the terminal gates. Nobody was arrested.',
      'My cat sleeps all day on the sofa.',
      'Harbour strike pickets blocked the container terminal road before dawn.',
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
    await drawer.getByRole('button', { name: /^Hide Sources/ }).click();

    // Related searches, drawn from the posts the question found; the answer rated down with a
    // comment, which the server keeps for this user.
    const related = log.getByRole('region', { name: 'Related searches' });
    const terminal = related.getByRole('button', { name: 'harbour strike terminal' });
    await terminal.waitFor();
    assert.deepEqual(
      await related.getByRole('listitem').allTextContents(),
      ['harbour strike terminal', 'harbour strike container'],
      'the words the strike posts share, none from the cat',
    );
    await log.getByRole('button', { name: 'Not helpful' }).click();
    const comment = log.getByRole('textbox', { name: 'What was wrong? (optional)' });
    await comment.fill('It does not say why the dockers strike.');
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.screenshot({ path: new URL('assistant-feedback.png', shots).pathname });
    await log.getByRole('button', { name: 'Send' }).click();
    await log.getByText('Thanks for the feedback.').waitFor();
    const session = await page.evaluate(() => sessionStorage.getItem('sightline.assistant.sessionId'));
    const kept = await api.call('GET', `/api/v1/ai-insights/conversation/${session}`);
    assert.deepEqual(kept.messages[0].feedback.rating, 'down');
    assert.equal(kept.messages[0].feedback.comment, 'It does not say why the dockers strike.');
    assert.deepEqual(kept.messages[0].related_searches, ['harbour strike terminal', 'harbour strike container']);

    // A related search is asked in the conversation and answered from the posts.
    await terminal.click();
    await log.getByText('harbour strike terminal', { exact: true }).nth(1).waitFor();
    await log.getByRole('group', { name: 'Rate this answer' }).nth(1).waitFor();
    assert.doesNotMatch((await log.textContent()) ?? '', /cat sleeps/);
    await page.screenshot({ path: new URL('assistant-related.png', shots).pathname });
    assert.deepEqual(await accessibilityViolations(page), []);

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

  it('is accessible in the dark theme, with related searches and a rated answer', async () => {
    await api.call('PATCH', '/api/v1/settings/profile/update/display-theme', { display_theme: 'dark' });
    try {
      await page.goto(`${server.url}/beacon`);
      await page.getByRole('button', { name: 'Assistant' }).click();
      const drawer = page.getByRole('dialog', { name: 'Assist' });
      await drawer.getByText('Ask about the last 7 days of posts').waitFor();
      assert.deepEqual(await accessibilityViolations(page), []);
      const input = drawer.getByRole('textbox', { name: 'Your question' });
      await input.fill('Where are the harbour strike pickets?');
      await input.press('Enter');
      const log = drawer.getByRole('log', { name: 'Conversation with the assistant' });
      await log.getByRole('region', { name: 'Related searches' }).waitFor();
      await log.getByRole('button', { name: 'Helpful', exact: true }).click();
      await log.getByText('Thanks for the feedback.').waitFor();
      await page.screenshot({ path: new URL('assistant-related-dark.png', shots).pathname });
      assert.deepEqual(await accessibilityViolations(page), []);
    } finally {
      await api.call('PATCH', '/api/v1/settings/profile/update/display-theme', { display_theme: 'light' });
    }
  });
});
