// Search filters end to end, in Chromium against the real binary: a filter list is created,
// given entries by CSV, attached to a saved search in the builder, and shows that search; Locate's
// explorer finds it, creates another in its quick-search modal (axe in the light and the dark
// theme), and Locate's saved searches hide a stream and show it again.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { accessibilityViolations, apiSession, closeAll, signedInBrowser, startServer } from './harness.mjs';

const LIST = 'Giveaway spam';
const SEARCH = 'Bridge news without spam';
const shots = new URL('../test-results/', import.meta.url);
const docs = new URL('../../docs/screenshots/', import.meta.url);

describe('Search filters', () => {
  let server;
  let browser;
  let page;

  const shot = (name) => page.screenshot({ path: new URL(`filters-${name}.png`, shots).pathname, fullPage: true });

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('creates a list and gives it entries from a CSV file', async () => {
    await page.goto(`${server.url}/monitor/filters`);
    await page.getByText('No filter lists yet').waitFor();
    await page.getByRole('article', { name: 'Spam and promotions' }).waitFor();
    await shot('empty');

    // The page's own button, not the Monitor navigation's link of the same name.
    await page.locator('a.MuiButton-root', { hasText: 'New filter list' }).click();
    await page.getByLabel('Name').fill(LIST);
    await page.getByLabel('Keywords').fill('giveaway');
    await page.getByRole('button', { name: 'Create filter list' }).click();
    await page.getByRole('heading', { level: 1, name: LIST }).waitFor();
    assert.match(new URL(page.url()).pathname, /^\/monitor\/filters\/\d+$/);

    // A header row, two new keywords, a duplicate and one too short.
    await page.getByLabel('CSV file').setInputFiles({
      name: 'spam.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('keyword\nfree gift\npromo code\nGiveaway\nab\n'),
    });
    await page.getByText(/^2 keywords added from spam\.csv\. 2 keywords were removed/).waitFor();
    const entries = page.getByRole('list', { name: 'Entries' });
    assert.deepEqual((await entries.getByRole('listitem').allTextContents()).sort(), [
      'free gift',
      'giveaway',
      'promo code',
    ]);
    await shot('edit');
  });

  it('attaches the list to a saved search in the builder', async () => {
    await page.goto(`${server.url}/monitor/dashboard`);
    await page.getByRole('button', { name: 'New saved search' }).click();
    const builder = page.getByRole('dialog', { name: 'New saved search' });
    await builder.getByRole('button', { name: 'New group' }).click();
    await page.getByLabel('Group name').fill('Filters e2e');
    await page.getByRole('button', { name: 'Create group' }).click();
    await builder.getByLabel('Keywords').fill('bridge');
    await builder.getByLabel('Search name').fill(SEARCH);
    await builder.getByRole('button', { name: /Search filters/ }).click();
    await builder.getByRole('checkbox', { name: new RegExp(LIST) }).check();
    await builder.getByText('1 selected').waitFor();
    await builder.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Your saved search is running').waitFor();

    await page.goto(`${server.url}/monitor/filters`);
    const row = page.getByRole('table', { name: 'Filter lists' }).getByRole('row', { name: new RegExp(LIST) });
    await row.getByText('1 saved search').waitFor();
    assert.match(await row.textContent(), /Keyword exclusion.*3.*admin@example\.test.*Owner/);
    await shot('list');
    await row.getByRole('link', { name: LIST }).click();
    await page.getByRole('region', { name: 'Used by' }).getByRole('link', { name: SEARCH }).waitFor();
  });

  it('explores the lists in Locate and creates one in the quick-search modal', async () => {
    await page.goto(`${server.url}/locate/search-filters`);
    const details = page.getByRole('region', { name: LIST });
    await details.getByRole('link', { name: SEARCH }).waitFor();
    assert.deepEqual(
      (await details.getByRole('list', { name: 'Entries' }).getByRole('listitem').allTextContents()).sort(),
      ['free gift', 'giveaway', 'promo code'],
    );
    await page.getByRole('link', { name: 'Create search filter' }).click();
    const modal = page.getByRole('dialog', { name: 'Create search filter' });
    await modal.getByText('Object-detection filters are disabled for quick search.', { exact: false }).waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
    await modal.getByLabel('Name').fill('Bot accounts');
    await modal.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: /Author exclusion/ }).click();
    await modal.getByLabel('Authors').fill('promo_bot, giveaway_king');
    await modal.getByRole('button', { name: 'Create filter list' }).click();
    await page.getByRole('region', { name: 'Bot accounts' }).waitFor();
    assert.match(page.url(), /\/locate\/search-filters\?list=\d+$/);
    await page.getByRole('region', { name: 'Bot accounts' }).getByText('2 entries').waitFor();
    await page
      .getByRole('navigation', { name: 'Filter lists' })
      .getByRole('button', { name: new RegExp(LIST) })
      .click();
    await details.waitFor();
    await page.screenshot({ path: new URL('locate-search-filters.png', docs).pathname });
  });

  it('hides a stream in Locate’s saved searches and shows it again', async () => {
    await page.goto(`${server.url}/locate/saved`);
    const table = page.getByRole('table', { name: 'Saved searches' });
    await table.getByRole('button', { name: `Hide ${SEARCH}` }).click();
    await page.getByText('Every saved search is hidden').waitFor();
    await page.getByRole('switch', { name: 'Show hidden streams' }).check();
    await table.getByRole('button', { name: `Show ${SEARCH}` }).waitFor();
    await page.screenshot({ path: new URL('locate-hidden-streams.png', docs).pathname });
    await table.getByRole('button', { name: `Show ${SEARCH}` }).click();
    await table.getByRole('button', { name: `Hide ${SEARCH}` }).waitFor();
    await page.getByText('No hidden streams.').waitFor();
  });

  it('is accessible in the dark theme, the explorer and the saved-search modal', async () => {
    const api = await apiSession(server);
    await api.call('PATCH', '/api/v1/settings/profile/update/display-theme', { display_theme: 'dark' });
    await page.goto(`${server.url}/locate/search-filters`);
    await page
      .getByRole('navigation', { name: 'Filter lists' })
      .getByRole('button', { name: new RegExp(LIST) })
      .click();
    await page.getByRole('region', { name: LIST }).waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.screenshot({ path: new URL('locate-search-filters-dark.png', docs).pathname });
    await page.goto(`${server.url}/locate/saved/search-filters/new`);
    await page.getByRole('dialog', { name: 'Create search filter' }).waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.screenshot({ path: new URL('locate-create-search-filter-dark.png', docs).pathname });
  });
});
