// The Monitor screens end to end, in Chromium against the real binary: building a saved search,
// the provider selector's rules, matches arriving live, bulk actions, sharing a group, and 404s.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  closeAll,
  launchBrowser,
  runSightline,
  signIn,
  signedInBrowser,
  startServer,
} from './harness.mjs';

const VIEWER_EMAIL = 'viewer@example.test';
const VIEWER_PASSWORD = `viewer-${process.pid}`;
const GROUP = 'Bridges e2e';
const SEARCH = 'River bridges';
const shots = new URL('../test-results/', import.meta.url);

describe('Monitor', () => {
  let server;
  let browser;
  let page;
  let token;
  let posted = 0;

  /** Ingests a post about the bridge through the API, as a connector would. */
  async function ingestBridgePost(author) {
    posted += 1;
    const post = {
      provider: 'reddit',
      native_id: `e2e-${process.pid}-${posted}`,
      content_type: 'thread_post',
      author_name: author,
      title_text: 'Bridge closed',
      content_text: `The old bridge over the river is closed (report ${posted}).`,
      published_at: new Date().toISOString(),
      post_link: `https://example.com/r/${posted}`,
    };
    const response = await fetch(`${server.url}/api/v1/ingest/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify([post]),
    });
    assert.equal(response.status, 200, await response.text());
  }

  const shot = (name) => page.screenshot({ path: new URL(`monitor-${name}.png`, shots).pathname });

  before(async () => {
    await mkdir(shots, { recursive: true });
    server = await startServer();
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    assert.equal(login.status, 200);
    token = (await login.json()).data.token;
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('builds a saved search, showing validation errors until they are fixed', async () => {
    await page.getByRole('button', { name: 'New saved search' }).click();
    const builder = page.getByRole('dialog', { name: 'New saved search' });
    const create = builder.getByRole('button', { name: 'Create', exact: true });
    await create.waitFor();
    assert.equal(await create.isDisabled(), true);

    // A new user has no group to choose: the group step makes one and comes back.
    await builder.getByRole('button', { name: 'New group' }).click();
    await page.getByLabel('Group name').fill(GROUP);
    await page.getByRole('button', { name: 'Create group' }).click();
    await builder.getByLabel('Keywords').waitFor();
    assert.equal(await builder.getByRole('combobox', { name: 'Group' }).textContent(), GROUP);

    await builder.getByLabel('Keywords').fill('bridge and river');
    // The keyword rules speak once typing pauses (750 ms).
    const keywordError = builder.getByText('Write the operators AND and OR in capitals').filter({ visible: true });
    await keywordError.waitFor();
    assert.equal(await create.isDisabled(), true);
    await builder.getByText('1 thing to fix').waitFor();
    await shot('builder-invalid');

    await builder.getByLabel('Keywords').fill('bridge AND river');
    await builder.getByText('(bridge AND river)').waitFor();
    await keywordError.waitFor({ state: 'detached' });
    // The name follows the keywords until edited.
    assert.equal(await builder.getByLabel('Search name').inputValue(), 'bridge AND river');
    await builder.getByLabel('Search name').fill(SEARCH);
    assert.equal(await create.isEnabled(), true);
    await create.click();

    await page.getByText('Your saved search is running').waitFor();
    await page.getByRole('link', { name: 'Open the search' }).click();
    await page.getByRole('heading', { level: 1, name: SEARCH }).waitFor();
    assert.match(new URL(page.url()).pathname, /^\/monitor\/\d+$/);
  });

  it('applies the provider selector rules', async () => {
    await page.goto(`${server.url}/monitor/dashboard`);
    await page.getByRole('button', { name: 'New saved search' }).click();
    const builder = page.getByRole('dialog', { name: 'New saved search' });
    await builder.getByRole('button', { name: /Data sources/ }).click();
    const all = builder.getByRole('checkbox', { name: 'Select all data sources' });
    const x = builder.getByRole('checkbox', { name: 'X', exact: true });
    const firehose = builder.getByRole('checkbox', { name: 'X Firehose' });
    const reddit = builder.getByRole('checkbox', { name: 'Reddit' });
    const flickr = builder.getByRole('checkbox', { name: 'Flickr' });

    // Defaults: every enabled source but the superset one and the photo network.
    await all.waitFor();
    assert.equal(await x.isChecked(), true);
    assert.equal(await firehose.isChecked(), false);
    assert.equal(await flickr.isChecked(), false);
    assert.equal(await all.getAttribute('data-indeterminate'), 'true');
    await shot('provider-selector');

    // Select all leaves the superset provider out.
    await all.check();
    assert.equal(await flickr.isChecked(), true);
    assert.equal(await firehose.isChecked(), false);
    // Choosing the superset provider clears the provider it carries.
    await firehose.check();
    assert.equal(await x.isChecked(), false);
    await x.check();
    assert.equal(await firehose.isChecked(), false);

    // Only: just this one, then every other one.
    await builder.getByRole('button', { name: 'Only Reddit' }).click();
    assert.equal(await reddit.isChecked(), true);
    assert.equal(await x.isChecked(), false);
    await builder.getByText(/^1 of \d+ selected$/).waitFor();
    await builder.getByRole('button', { name: 'Only Reddit' }).click();
    assert.equal(await reddit.isChecked(), false);
    assert.equal(await x.isChecked(), true);

    // A region's box clears and selects its providers.
    const northAmerica = builder.getByRole('checkbox', { name: 'North America' });
    const gab = builder.getByRole('checkbox', { name: 'Gab' });
    await northAmerica.uncheck();
    assert.equal(await gab.isChecked(), false);
    await northAmerica.check();
    assert.equal(await gab.isChecked(), true);

    // Specialty sources cannot be chosen and say why.
    assert.equal(await builder.getByRole('checkbox', { name: 'Infected Host Data' }).isDisabled(), true);
    await builder.getByRole('button', { name: 'About Infected Host Data' }).click();
    await page.getByRole('dialog', { name: 'About Infected Host Data' }).getByText('specialty data source').waitFor();
    await page.keyboard.press('Escape');

    // The search types of a provider, joined with commas and "and".
    await builder.getByRole('img', { name: 'Supports location, keyword and author searches' }).first().waitFor();

    await builder.getByRole('button', { name: 'Cancel' }).click();
    await builder.waitFor({ state: 'detached' });
  });

  it('shows matches arriving live in the grid and the list', async () => {
    await page.goto(`${server.url}/settings`);
    const streaming = page.getByRole('switch', { name: 'Show new matches in the inbox as they arrive' });
    // The switch follows the server: it turns on once the setting is saved.
    await streaming.click();
    await page.getByText('Inbox setting saved').waitFor();
    assert.equal(await streaming.isChecked(), true);

    await page.goto(`${server.url}/monitor/matches/grid`);
    await page.getByText('No matches yet').waitFor();
    // A reload would lose this mark.
    await page.evaluate(() => {
      globalThis.sightlineNoReload = true;
    });
    await ingestBridgePost('Riverwatch');
    const first = page.getByRole('article', { name: 'Unread match by Riverwatch' });
    await first.waitFor();
    await first.getByText('bridge', { exact: true }).first().waitFor();
    // The live event says why it matched: both terms of "bridge AND river", in the text.
    const why = first.getByRole('list', { name: 'Why it matched' });
    await why.getByRole('listitem', { name: 'Matched bridge in the text' }).waitFor();
    await why.getByRole('listitem', { name: 'Matched river in the text' }).waitFor();
    await shot('grid-live');

    await page.getByRole('button', { name: 'List' }).click();
    await page.waitForURL(/\/monitor\/matches\/list$/);
    await ingestBridgePost('Harbourmaster');
    await page.getByRole('article', { name: 'Unread match by Harbourmaster' }).waitFor();
    assert.equal(await page.evaluate(() => globalThis.sightlineNoReload), true);
    await page.getByText('2 matches', { exact: true }).waitFor();
    await shot('list-live');
  });

  it('flags and marks matches read in bulk', async () => {
    await page.getByRole('checkbox', { name: 'Choose every loaded match' }).check();
    await page.getByText('2 chosen').waitFor();
    await page.getByRole('button', { name: 'Flag 2 chosen matches', exact: true }).click();
    // Flags are not a way to keep matches: the warning says so before the first flag.
    const warning = page.getByRole('dialog', { name: 'Flagging matches' });
    assert.match(await warning.textContent(), /still deleted with the others after/);
    await warning.getByRole('button', { name: 'Flag' }).click();
    await warning.waitFor({ state: 'detached' });
    await page.getByText('2 matches flagged').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Remove flag' }).count(), 2);

    await page.getByRole('button', { name: 'Mark read 2 chosen matches', exact: true }).click();
    await page.getByText('2 matches marked as read').waitFor();
    assert.equal(await page.getByRole('article', { name: /^Unread match/ }).count(), 0);

    // The server kept both changes.
    await page.reload();
    await page.getByRole('article', { name: 'Match by Riverwatch' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Remove flag' }).count(), 2);
    await page.getByRole('button', { name: 'Flagged' }).click();
    await page.getByText('2 matches', { exact: true }).waitFor();
    await shot('list-flagged');
  });

  it('shows the matches on the dashboard, with the read ones no longer unread', async () => {
    await page.goto(`${server.url}/monitor/dashboard`);
    const results = page.getByRole('region', { name: 'Results' });
    await results.getByRole('link', { name: '2 results: open in the inbox' }).waitFor();
    await page
      .getByRole('region', { name: 'Unread results' })
      .getByRole('link', { name: '0 unread results: open in the inbox' })
      .waitFor();
    const authors = page.getByRole('region', { name: 'Top authors' });
    await authors.getByRole('link', { name: /Riverwatch/ }).waitFor();
    await authors.getByRole('link', { name: /Harbourmaster/ }).waitFor();
    const timeline = page.getByRole('region', { name: 'Results per day (30 days)' });
    await timeline.getByRole('img', { name: new RegExp(`, ${SEARCH}: 2$`) }).waitFor();
    await timeline.getByRole('link', { name: SEARCH }).waitFor();
    await shot('dashboard');

    // A data source opens the inbox narrowed to it, and says so.
    await page.getByRole('region', { name: 'Top data sources' }).getByRole('link', { name: 'Reddit' }).click();
    await page.waitForURL(/\/monitor\/matches\/grid\?providers=reddit$/);
    await page.getByRole('button', { name: 'Data source: Reddit' }).waitFor();
    await page.getByRole('article', { name: 'Match by Riverwatch' }).waitFor();
    await page.goBack();
    await authors.getByRole('link', { name: /Riverwatch/ }).click();
    await page.waitForURL(/\/monitor\/matches\/grid\?searchText=Riverwatch&searchIn=authorName$/);
    await page.getByRole('article', { name: 'Match by Riverwatch' }).waitFor();
  });

  it('shares a group with a second user, who then sees it read-only', async () => {
    await runSightline(server.dataDir, [
      'user',
      'create',
      '--org',
      'Default',
      '--email',
      VIEWER_EMAIL,
      '--password',
      VIEWER_PASSWORD,
    ]);
    await page.goto(`${server.url}/monitor/groups`);
    await page.getByRole('button', { name: `Actions for ${GROUP}` }).click();
    await page.getByRole('menuitem', { name: 'Share' }).click();
    const sharing = page.getByRole('dialog', { name: `Share “${GROUP}”` });
    await sharing.getByLabel('Add people from your organization').click();
    await page.getByRole('option', { name: new RegExp(VIEWER_EMAIL) }).click();
    // Invitees start with read-only access.
    assert.equal(await sharing.getByRole('combobox', { name: 'Role' }).textContent(), 'can view');
    await sharing.getByRole('button', { name: 'Add' }).click();
    await sharing.getByText(VIEWER_EMAIL).waitFor();
    await shot('sharing');
    await sharing.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Group updated').waitFor();
    await page.getByRole('img', { name: new RegExp(`Shared with ${VIEWER_EMAIL} \\(can view\\)`) }).waitFor();

    const viewerBrowser = await launchBrowser();
    try {
      const viewer = await viewerBrowser.context.newPage();
      await viewer.goto(`${server.url}/monitor/groups`);
      await signIn(viewer, { email: VIEWER_EMAIL, password: VIEWER_PASSWORD });
      await viewer.getByRole('list', { name: 'Search groups' }).getByRole('link', { name: GROUP }).click();
      await viewer.getByRole('heading', { level: 1, name: GROUP }).waitFor();
      await viewer.getByText('you can view this group').waitFor();
      assert.equal(await viewer.getByRole('button', { name: 'New search' }).count(), 0);
      assert.equal(await viewer.getByRole('checkbox', { name: `${SEARCH} is running` }).count(), 0);

      await viewer
        .getByRole('list', { name: `Saved searches in ${GROUP}` })
        .getByRole('link', { name: SEARCH })
        .click();
      await viewer.getByRole('heading', { level: 1, name: SEARCH }).waitFor();
      assert.equal(await viewer.getByRole('button', { name: 'Edit' }).count(), 0);
      assert.equal(await viewer.getByRole('button', { name: 'Pause' }).count(), 0);
      // Viewers may read matches (flags are per person) but not flag them.
      const match = viewer.getByRole('article', { name: 'Unread match by Riverwatch' });
      await match.waitFor();
      assert.equal(await match.getByRole('button', { name: 'Flag', exact: true }).isDisabled(), true);
      assert.equal(await match.getByRole('button', { name: 'Mark as read' }).isEnabled(), true);
      await viewer.getByRole('button', { name: `Actions for ${SEARCH}` }).click();
      await viewer.getByRole('menuitem', { name: 'Leave search' }).waitFor();
      assert.equal(await viewer.getByRole('menuitem', { name: 'Delete' }).count(), 0);
      await viewer.screenshot({ path: new URL('monitor-viewer.png', shots).pathname });
    } finally {
      await viewerBrowser.close();
    }
  });

  it('shows the 404 page for unknown routes and searches', async () => {
    await page.goto(`${server.url}/monitor/no-such/route/here`);
    await page.getByRole('heading', { name: 'You seem lost' }).waitFor();
    await page.goto(`${server.url}/monitor/999999`);
    await page.getByRole('heading', { name: 'You seem lost' }).waitFor();
  });
});
