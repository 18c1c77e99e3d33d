// Against the real binary: places a post's text mentions show on its inbox card, and the
// Settings switch "Show places a post mentions" hides them. Axe checks each screen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessibilityViolations, apiSession, closeAll, signedInBrowser, startServer } from './harness.mjs';

describe('Mentioned places', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer();
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('show on inbox cards until turned off in Settings', async () => {
    const api = await apiSession(server);
    const group = await api.call('POST', '/api/v1/monitor/monitor-search-groups', { name: 'Places e2e' });
    await api.call('POST', '/api/v1/monitor/searches', {
      group_id: group.id,
      name: 'Bridges',
      keywords: 'bridge',
      providers: ['reddit'],
    });
    const post = {
      provider: 'reddit',
      native_id: `places-${process.pid}`,
      content_type: 'thread_post',
      author_name: 'Riverwatch',
      title_text: 'Bridge closed',
      content_text: 'The old bridge between Paris and Lyon is closed, say reports from Berlin.',
      published_at: new Date().toISOString(),
      post_link: 'https://example.com/r/1',
    };
    const ingested = await fetch(`${server.url}/api/v1/ingest/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${api.token}` },
      body: JSON.stringify([post]),
    });
    assert.equal(ingested.status, 200, await ingested.text());

    await page.goto(`${server.url}/monitor/matches/grid`);
    const card = page.getByRole('article', { name: /match by Riverwatch/ });
    await card.waitFor();
    await card.getByText('Mentions Paris, Lyon, Berlin').waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);

    await page.goto(`${server.url}/settings`);
    const places = page.getByRole('switch', { name: 'Show places a post mentions' });
    assert.equal(await places.isChecked(), true);
    await places.click();
    await page.getByText('Inbox setting saved').waitFor();
    assert.equal(await places.isChecked(), false);
    assert.deepEqual(await accessibilityViolations(page), []);

    await page.goto(`${server.url}/monitor/matches/grid`);
    await card.waitFor();
    await card.getByText('Bridge closed').waitFor();
    assert.equal(await card.getByText(/^Mentions /).count(), 0);
  });
});
