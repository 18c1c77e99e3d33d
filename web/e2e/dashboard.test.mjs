// Against the real binary: the screens that only draw their lists once there is data — the
// dashboard's widgets (top authors, mentioned places), the Assets page, a story's page and a
// story card of the inbox expanded into its matches —
// checked with axe in the light and the dark theme (issue 28). The harness audits each screen
// again once its rows are drawn; here each is also checked explicitly, after its data has drawn,
// so a failure names the test and the theme.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessibilityViolations, apiSession, closeAll, signedInBrowser, startServer } from './harness.mjs';

const THEMES = ['light', 'dark'];

describe('Screens with data, in both themes', () => {
  let server;
  let browser;
  let page;
  let api;

  before(async () => {
    server = await startServer();
    api = await apiSession(server);
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'Bridges',
      keywords: 'bridge',
      providers: ['reddit'],
    });
    // Three authors and three places; the same report twice makes a story of two posts.
    const post = (n, author, text) => ({
      provider: 'reddit',
      native_id: `dashboard-e2e-${process.pid}-${n}`,
      content_type: 'thread_post',
      author_name: author,
      content_text: text,
      language: 'en',
      published_at: new Date(Date.now() - n * 60_000).toISOString(),
      post_link: `https://example.com/r/${n}`,
    });
    await api.call('POST', '/api/v1/ingest/posts', [
      post(1, 'Riverwatch', 'The old bridge between Paris and Lyon is closed after the storm, say reports from Berlin.'),
      post(2, 'Harbourmaster', 'The old bridge between Paris and Lyon is closed after the storm, say reports from Berlin!'),
      post(3, 'Citydesk', 'Traffic diverted in Paris while the bridge is inspected.'),
    ]);
    await api.call('POST', '/api/v1/monitor/assets', { type: 'domain', value: 'example.com' });
    await api.call('POST', '/api/v1/monitor/assets', { type: 'author', value: 'Riverwatch' });
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  for (const theme of THEMES) {
    describe(`${theme} theme`, () => {
      before(() => api.call('PATCH', '/api/v1/settings/profile/update/display-theme', { display_theme: theme }));

      it('dashboard with top authors and mentioned places', async () => {
        await page.goto(`${server.url}/monitor/dashboard`);
        const authors = page.getByRole('region', { name: 'Top authors' });
        await authors.getByRole('link', { name: /Riverwatch/ }).waitFor();
        const places = page.getByRole('region', { name: 'Top mentioned locations (30 days)' });
        await places.getByRole('link', { name: /Paris/ }).first().waitFor();
        assert.deepEqual(await accessibilityViolations(page), []);
      });

      it('assets page with assets', async () => {
        await page.goto(`${server.url}/monitor/assets`);
        await page.getByRole('cell', { name: 'example.com', exact: true }).waitFor();
        assert.deepEqual(await accessibilityViolations(page), []);
      });

      it("a story's page", async () => {
        await page.goto(`${server.url}/monitor/matches/stories`);
        await page.getByText(/\d+ posts in the story/).first().waitFor();
        await page.getByRole('article').getByRole('heading', { level: 2 }).getByRole('link').first().click();
        await page.waitForURL(/\/monitor\/stories\/[^/]+$/);
        await page.getByRole('heading', { level: 1 }).waitFor();
        assert.deepEqual(await accessibilityViolations(page), []);
      });

      it('a story card expanded into its matches, and read as a whole', async () => {
        await page.goto(`${server.url}/monitor/matches/stories`);
        // The bridge's reports are one story (how many of them the clusterer joins is its business).
        const toggle = page.getByRole('button', { name: /^\d+ matches in this inbox$/ }).first();
        const count = Number.parseInt(await toggle.innerText(), 10);
        const card = page.getByRole('article').filter({ has: toggle });
        await toggle.click();
        assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
        const feed = card.getByRole('feed', { name: 'Matches in this story' });
        await feed.getByRole('article').nth(count - 1).waitFor();
        assert.equal(await feed.getByRole('article').count(), count);
        assert.deepEqual(await accessibilityViolations(page), []);
        await card.getByRole('button', { name: 'Mark story read' }).click();
        await page.getByText(`${count} matches marked as read`).waitFor();
        // The list loads again with every one read.
        await feed.getByRole('article', { name: /^Match by / }).nth(count - 1).waitFor();
      });
    });
  }
});
