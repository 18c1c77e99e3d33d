// Against the real binary: four days of a saved search's posts pushed with their publication
// times (history, not news), then a burst of posts now. Detection, run when the server starts
// (restarted here once the posts are stored) and every minute, makes it a spike: the dashboard's Spikes widget lists it against the count usually expected, the
// saved search's page marks it on its timeline, and the Trending widget names the burst's hashtag.
// Axe checks the widgets with their data in the light and the dark theme.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DEADLINE_MS,
  accessibilityViolations,
  apiSession,
  closeAll,
  signedInBrowser,
  startServer,
} from './harness.mjs';

describe('spikes', () => {
  let server;
  let browser;
  let page;
  let searchId;
  let api;

  before(async () => {
    server = await startServer();
    api = await apiSession(server);
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    ({ id: searchId } = await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'Harbour watch',
      keywords: 'harbour',
      providers: ['reddit'],
    }));
    const now = Date.now();
    const post = (id, text, at) => ({
      provider: 'reddit',
      native_id: `spikes-e2e-${process.pid}-${id}`,
      content_type: 'thread_post',
      author_name: 'Harbour desk',
      content_text: text,
      language: 'en',
      published_at: new Date(at).toISOString(),
    });
    const posts = [];
    for (let t = now - 4 * 24 * 3600_000; t < now - 3600_000; t += 15 * 60_000) {
      posts.push(post(`history-${t}`, 'Harbour traffic report: ships moving as usual', t));
    }
    for (let i = 0; i < 40; i++) {
      posts.push(
        post(`burst-${i}`, `Harbour closed after the crane collapse #cranecollapse, update ${i}`, now - i * 15_000),
      );
    }
    for (let i = 0; i < posts.length; i += 200) await api.call('POST', '/api/v1/ingest/posts', posts.slice(i, i + 200));
    // Detection runs when the server starts, then every minute: once the posts are stored, a
    // restart detects at once rather than at the next minute (the test waited for it, ~55 s).
    const deadline = Date.now() + DEADLINE_MS;
    while ((await api.call('POST', '/beacon/v1/all', { query: 'harbour' })).totalCount !== posts.length) {
      assert.ok(Date.now() < deadline, 'the posts were not stored');
      await sleep(200);
    }
    await server.restart();
    let spikes = [];
    while (spikes.length === 0 && Date.now() < deadline) {
      spikes = await api.call('GET', `/api/v1/monitor/searches/${searchId}/spikes`);
      if (spikes.length === 0) await sleep(200);
    }
    assert.ok(spikes.length > 0, `no spike was detected within ${DEADLINE_MS} ms`);
    assert.ok(spikes[0].count >= 20 && spikes[0].expected < 5, JSON.stringify(spikes[0]));
    // The two widgets under test (the harness checks each page's accessibility).
    await api.call('PUT', '/api/v1/monitor/dashboard/layout', { rows: [{ widgets: ['spikes', 'trending'] }] });
    ({ browser, page } = await signedInBrowser(server));
  });

  after(async () => {
    await closeAll(browser, server);
  });

  it('lists the spike and the trending hashtag on the dashboard', async () => {
    await page.goto(`${server.url}/monitor/dashboard`);
    const spikes = page.getByRole('region', { name: 'Spikes (7 days)' });
    await spikes.getByRole('button', { name: /Harbour watch — \d+ posts, about \d+ expected/ }).waitFor();
    const trending = page.getByRole('region', { name: 'Trending in your matches (last hour)' });
    await trending.getByText('#cranecollapse', { exact: true }).waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
  });

  it('lists them accessibly in the dark theme too', async () => {
    await api.call('PATCH', '/api/v1/settings/profile/update/display-theme', { display_theme: 'dark' });
    await page.goto(`${server.url}/monitor/dashboard`);
    await page
      .getByRole('region', { name: 'Spikes (7 days)' })
      .getByRole('button', { name: /Harbour watch — \d+ posts/ })
      .first()
      .waitFor();
    await page
      .getByRole('region', { name: 'Trending in your matches (last hour)' })
      .getByText('#cranecollapse', { exact: true })
      .waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
    await api.call('PATCH', '/api/v1/settings/profile/update/display-theme', { display_theme: 'light' });
  });

  it('marks the spike on the saved search page', async () => {
    await page.goto(`${server.url}/monitor/${searchId}`);
    const region = page.getByRole('region', { name: 'Spikes' });
    await region.getByRole('img', { name: /Spikes over the last seven days: .*All matches, \d+ posts/ }).waitFor();
    await region.getByText(/All matches — \d+ posts, about \d+ expected/).waitFor();
  });
});
