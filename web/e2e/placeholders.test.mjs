// Every Monitor screen, with real data in it, says what it does: none promises a later release.
/* global document */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiSession, closeAll, signedInBrowser, startServer } from './harness.mjs';

const PROMISES = [/arrives? with/i, /not yet/i, /cannot be opened yet/i, /coming soon/i, /later release/i];

describe('Monitor screens', () => {
  let server;
  let browser;
  let page;
  const routes = [
    '/monitor/dashboard',
    '/monitor/customize',
    '/monitor/matches/list',
    '/monitor/matches/grid',
    '/monitor/matches/map',
    '/monitor/groups',
    '/monitor/filters',
    '/monitor/filters/new',
    '/monitor/configurations',
    '/settings',
    '/tenant/home',
    '/tenant/users',
    '/tenant/tokens',
  ];

  before(async () => {
    server = await startServer();
    const api = await apiSession(server);
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    const search = await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'Harbour',
      keywords: 'harbour',
      providers: ['reddit'],
    });
    const list = await api.call('POST', '/api/v1/filter-lists', {
      name: 'Noise',
      type: 'keyword',
      inclusion: false,
      keywords: ['giveaway'],
    });
    routes.push(`/monitor/groups/${home.id}`, `/monitor/${search.id}`, `/monitor/filters/${list.id}`);
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('never promise a later feature', async () => {
    for (const route of routes) {
      await page.goto(`${server.url}${route}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForFunction(() => !document.querySelector('.MuiSkeleton-root, [role="progressbar"]'));
      assert.notEqual(await page.getByText('You seem lost').count(), 1, `${route} is the 404 page`);
      // What is read out counts as much as what is shown: labels and tooltips' titles too.
      const text = await page.evaluate(() =>
        [
          document.body.innerText,
          ...Array.from(document.querySelectorAll('[aria-label], [title]'), (el) =>
            [el.getAttribute('aria-label'), el.getAttribute('title')].join(' '),
          ),
        ].join('\n'),
      );
      for (const promise of PROMISES) {
        const found = text.match(promise);
        assert.equal(found, null, `${route} says "${found?.[0]}"`);
      }
    }
  });
});
