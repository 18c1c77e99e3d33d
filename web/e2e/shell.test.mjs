// The app shell end to end: the real binary, a real browser, a new user's first visit.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { closeAll, launchBrowser, listen, signIn, startServer } from './harness.mjs';

const screenshots = new URL('../test-results/', import.meta.url);

describe('app shell', () => {
  let server;
  let browser;
  let page;
  // The Compliance product beside Sightline, and an RFI portal the admin has no access to.
  let portal;

  before(async () => {
    portal = createServer((_, response) =>
      response.end('<!doctype html><title>Compliance</title><h1>Compliance portal</h1>'),
    );
    const portalUrl = `http://127.0.0.1:${await listen(portal)}`;
    server = await startServer({
      env: { SIGHTLINE_COMPLIANCE_URL: `${portalUrl}/compliance-home`, SIGHTLINE_RFI_URL: `${portalUrl}/rfi-home` },
    });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await mkdir(screenshots, { recursive: true });
  });

  after(async () => {
    try {
      await closeAll(browser, server);
    } finally {
      // Even when closing failed: an open portal keeps the test process running.
      portal.close();
    }
  });

  const path = () => new URL(page.url()).pathname;
  const heading = (name) => page.getByRole('heading', { level: 1, name });

  it('sends a visitor without a session to sign in', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('refuses wrong credentials with the server message', async () => {
    await page.getByLabel('Email').fill('admin@example.test');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('These credentials do not match our records.').waitFor();
    assert.equal(path(), '/login');
  });

  it('signs in and lands on the Monitor dashboard', async () => {
    await signIn(page);
    await page.waitForURL((url) => url.pathname === '/monitor/dashboard');
    await heading('Dashboard').waitFor();
    await page.getByRole('navigation', { name: 'Products' }).waitFor();
    await page.getByRole('navigation', { name: 'Monitor' }).waitFor();
    await page.screenshot({ path: new URL('shell-light.png', screenshots).pathname });
  });

  it('moves through the Monitor navigation panel', async () => {
    const panel = page.getByRole('navigation', { name: 'Monitor' });
    const visits = [
      ['Search groups', '/monitor/groups', 'Search groups'],
      ['Search filters', '/monitor/filters', 'Search filters'],
      ['New filter list', '/monitor/filters/new', 'New filter list'],
      ['Location configurations', '/monitor/configurations', 'Location configurations'],
      ['Dashboard', '/monitor/dashboard', 'Dashboard'],
    ];
    for (const [link, wantPath, wantHeading] of visits) {
      await panel.getByRole('link', { name: link, exact: true }).click();
      await page.waitForURL((url) => url.pathname === wantPath);
      await heading(wantHeading).waitFor();
    }
    await panel.getByRole('button', { name: 'Matches' }).click();
    await panel.getByRole('link', { name: 'List', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/monitor/matches/list');
    await heading('Inbox').waitFor();
  });

  it('searches matches from the top bar', async () => {
    await page.getByRole('link', { name: 'Search groups' }).click();
    await page.waitForURL((url) => url.pathname === '/monitor/groups');
    // The router pushes the address before React commits the new screen (a transition): until the
    // groups page shows, the form still acts for the inbox list and would filter it in place.
    await heading('Search groups').waitFor();
    const search = page.getByRole('searchbox', { name: 'Search matches' });
    await search.press('Enter');
    await page.getByText('Search cannot be empty').waitFor();
    await search.fill('ransomware');
    await search.press('Enter');
    await page.waitForURL((url) => url.pathname === '/monitor/matches/grid');
    assert.equal(new URL(page.url()).searchParams.get('searchText'), 'ransomware');
    await page.getByRole('button', { name: 'Clear search' }).waitFor();
  });

  it('moves through the left rail', async () => {
    const rail = page.getByRole('navigation', { name: 'Products' });

    await rail.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await heading('Settings').waitFor();
    await page.getByRole('table', { name: 'Members of Default' }).getByText('admin@example.test').waitFor();

    // The dark theme is saved to the profile and survives a reload.
    await page.getByRole('button', { name: 'Dark' }).click();
    await page.getByText('Theme saved').waitFor();
    await page.reload();
    await heading('Settings').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed'), 'true');

    await rail.getByRole('link', { name: 'Monitor', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/monitor/dashboard');
    await heading('Dashboard').waitFor();
    await page.screenshot({ path: new URL('shell-dark.png', screenshots).pathname });

    // Only areas that exist here are linked: Compliance has an address; My RFIs has one too, but
    // the admin has no RFI access. The first administrator is a tenant admin: the portal is theirs.
    const areas = await rail.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    assert.deepEqual(areas, [
      '/locate',
      '/beacon',
      '/monitor/dashboard',
      '/cases',
      '/compliance',
      '/tenant',
      '/settings',
      '/logout',
    ]);
  });

  it('opens Compliance at the address the operator gave', async () => {
    const rail = page.getByRole('navigation', { name: 'Products' });
    await rail.getByRole('link', { name: 'Compliance', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/compliance-home');
    await page.getByRole('heading', { name: 'Compliance portal' }).waitFor();
    await page.goBack();
    await heading('Dashboard').waitFor();
  });

  it('shows the 404 page for an unknown Monitor route', async () => {
    await page.goto(`${server.url}/monitor/no-such/route/here`);
    await page.getByText('You seem lost').waitFor();
    await page.getByText('The page you were attempting to view is not available!').waitFor();
    await page.getByRole('button', { name: 'Go Back' }).waitFor();
  });

  it('signs out through the rail and ends the session', async () => {
    const rail = page.getByRole('navigation', { name: 'Products' });
    await rail.getByRole('link', { name: 'Logout', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Sign out of Sightline?' })
      .getByRole('button', { name: 'Sign out' })
      .click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    await page.goto(`${server.url}/monitor/dashboard`);
    await page.waitForURL((url) => url.pathname === '/login');
    assert.equal(new URL(page.url()).searchParams.get('redirect'), '/monitor/dashboard');
  });
});
