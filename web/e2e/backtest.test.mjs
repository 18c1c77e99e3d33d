// The builder's Preview end to end, in Chromium against the real binary: stored posts are
// previewed with a draft search (count, days, newest posts) before it is saved, then it is saved.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEADLINE_MS, closeAll, signedInBrowser, startServer } from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);
const DAY = 24 * 3600 * 1000;

describe('Search preview', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    assert.equal(login.status, 200);
    const { token } = (await login.json()).data;
    // Six posts about the ferry over the last days, two about something else.
    const posts = [
      ...[0, 1, 1, 3, 6, 12].map((days, i) => ({
        content_text: `The ferry to the island is delayed again (report ${i}).`,
        author_name: `Harbour watch ${i}`,
        published_at: new Date(Date.now() - days * DAY - (i + 1) * 60_000).toISOString(),
      })),
      {
        content_text: 'Sunny afternoon at the market.',
        author_name: 'Market news',
        published_at: new Date().toISOString(),
      },
      {
        content_text: 'Road works on the north bridge.',
        author_name: 'City desk',
        published_at: new Date().toISOString(),
      },
    ].map((p, i) => ({
      provider: 'reddit',
      native_id: `preview-${process.pid}-${i}`,
      content_type: 'thread_post',
      ...p,
    }));
    const ingest = await fetch(`${server.url}/api/v1/ingest/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(posts),
    });
    assert.equal(ingest.status, 200, await ingest.text());
    // Storing is asynchronous: wait until the API's own backtest sees the six posts.
    const auth = { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` };
    const groups = await (await fetch(`${server.url}/api/v1/monitor/monitor-search-groups`, { headers: auth })).json();
    const home = groups.data.find((g) => g.isSavedSearch);
    const draft = { group_id: home.id, name: 'ferry', keywords: 'ferry', providers: ['reddit'] };
    for (let deadline = Date.now() + DEADLINE_MS; ;) {
      const reply = await fetch(`${server.url}/api/v1/monitor/searches/backtest`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(draft),
      });
      assert.equal(reply.status, 200, await reply.clone().text());
      if ((await reply.json()).data.count === 6) break;
      assert.ok(Date.now() < deadline, 'the ingested posts were never stored');
      await new Promise((resolve) => setTimeout(resolve, 250)); // a poll interval, well under the rate limit
    }
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('shows what a draft search matches among stored posts before saving it', async () => {
    await page.getByRole('button', { name: 'New saved search' }).click();
    const builder = page.getByRole('dialog', { name: 'New saved search' });
    await builder.getByRole('button', { name: 'New group' }).click();
    await page.getByLabel('Group name').fill('Ferries');
    await page.getByRole('button', { name: 'Create group' }).click();
    await builder.getByLabel('Keywords').fill('ferry');
    await builder.getByText('(ferry)').waitFor();
    await builder.getByRole('button', { name: 'Preview' }).click();

    const preview = page.getByRole('dialog', { name: 'Preview: ferry' });
    await preview.getByText('6 matches in the last 30 days').waitFor();
    const days = preview.getByRole('list', { name: 'Matches per day' }).getByRole('listitem');
    assert.equal(await days.count(), 31);
    const posts = preview.getByRole('article');
    assert.equal(await posts.count(), 6);
    assert.equal(await posts.first().getAttribute('aria-label'), 'Post by Harbour watch 0');
    await page.screenshot({ path: new URL('backtest-preview.png', shots).pathname });

    await preview.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Your saved search is running').waitFor();
  });
});
