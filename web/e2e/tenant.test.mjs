// Against the real binary: the tenant portal as the first administrator (a tenant admin). A
// token made in the portal calls the API until it is revoked there; a user created there signs
// in, and is signed out at once when disabled. Every screen is checked with axe.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_EMAIL,
  accessibilityViolations,
  apiSession,
  closeAll,
  signedInBrowser,
  startServer,
} from './harness.mjs';

const USER_EMAIL = 'rita@example.test';
const USER_PASSWORD = `first-password-${process.pid}`;

// The harness audits every screen it navigates to in the background; an audit asked for here
// (a dialog open) waits for that one to finish rather than colliding with it.
async function violationsNow(page) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await accessibilityViolations(page);
    } catch (error) {
      if (attempt >= 20 || !String(error).includes('Axe is already running')) throw error;
      await new Promise((done) => setTimeout(done, 250));
    }
  }
}

describe('Tenant portal', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer();
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  const profileWith = (token) =>
    fetch(`${server.url}/api/v1/settings/profile/current`, { headers: { Authorization: `Bearer ${token}` } });

  it('opens from the rail on the organizations of the tenant', async () => {
    await page.goto(`${server.url}/monitor/dashboard`);
    await page.getByRole('navigation', { name: 'Products' }).getByRole('link', { name: 'Tenant portal' }).click();
    await page.waitForURL((url) => url.pathname === '/tenant/home');
    const card = page.getByRole('region', { name: 'Default' });
    await card.getByText('Matches this month').waitFor();
    await card.getByRole('switch', { name: 'AI features for Default' }).click();
    await page.getByText('Default updated').waitFor();
    assert.equal(await card.getByRole('switch', { name: 'AI features for Default' }).isChecked(), true);
    assert.deepEqual(await violationsNow(page), []);
  });

  it('creates a user, who signs in, and disables them, which signs them out', async () => {
    await page.getByRole('navigation', { name: 'Tenant portal' }).getByRole('link', { name: 'Users' }).click();
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByText(ADMIN_EMAIL).waitFor();
    assert.deepEqual(await violationsNow(page), []);

    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a user' });
    await dialog.getByLabel('Name').fill('Rita');
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(USER_EMAIL);
    await dialog.getByLabel('First password').fill(USER_PASSWORD);
    assert.deepEqual(await violationsNow(page), []);
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await table.getByText(USER_EMAIL).waitFor();

    const rita = await apiSession(server, { email: USER_EMAIL, password: USER_PASSWORD });
    assert.equal((await rita.call('GET', '/api/v1/settings/profile/current')).email, USER_EMAIL);
    await table.getByRole('button', { name: 'Disable Rita' }).click();
    await page.getByRole('dialog', { name: 'Disable Rita?' }).getByRole('button', { name: 'Disable' }).click();
    await table.getByRole('button', { name: 'Enable Rita' }).waitFor();
    await assert.rejects(rita.call('GET', '/api/v1/settings/profile/current'), /401/);
    await assert.rejects(apiSession(server, { email: USER_EMAIL, password: USER_PASSWORD }), /401/);
  });

  it('creates a token that calls the API, and revokes it', async () => {
    await page.getByRole('navigation', { name: 'Tenant portal' }).getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { name: 'No API tokens yet' }).waitFor();
    assert.deepEqual(await violationsNow(page), []);

    await page.getByRole('button', { name: 'Create token' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create an API token' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('e2e script');
    await dialog.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: new RegExp(ADMIN_EMAIL) }).click();
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Token e2e script created' });
    const secret = await shown.getByRole('textbox', { name: 'API token' }).inputValue();
    assert.match(secret, /^slt_/);
    assert.deepEqual(await violationsNow(page), []);
    await shown.getByRole('button', { name: 'Done' }).click();

    const works = await profileWith(secret);
    assert.equal(works.status, 200);
    assert.equal((await works.json()).data.email, ADMIN_EMAIL);

    const table = page.getByRole('table', { name: 'API tokens' });
    await table.getByRole('button', { name: `Revoke e2e script of ${ADMIN_EMAIL}` }).click();
    await page.getByRole('dialog', { name: 'Revoke e2e script?' }).getByRole('button', { name: 'Revoke' }).click();
    await table.getByText('Revoked').waitFor();
    assert.equal((await profileWith(secret)).status, 401);
    assert.deepEqual(await violationsNow(page), []);
  });
});
