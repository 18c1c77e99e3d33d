// Against the real binary: the password changed in Settings (a rule refused first, the other
// session signed out, the new password signing in), and another session ended from the list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  accessibilityViolations,
  apiSession,
  closeAll,
  launchBrowser,
  signIn,
  signedInBrowser,
  startServer,
} from './harness.mjs';

const NEW_PASSWORD = `tidal-harbour-${process.pid}`;

describe('Account settings', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer();
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('ends another session from the list', async () => {
    const other = await apiSession(server);
    await page.goto(`${server.url}/settings`);
    const table = page.getByRole('table', { name: 'Your sessions' });
    await table.getByText('This device').waitFor();
    await table.getByRole('button', { name: /^End the session/ }).click();
    await page.getByText('Session ended').waitFor();
    await assert.rejects(other.call('GET', '/api/v1/settings/profile/current'), /401/);
    assert.deepEqual(await accessibilityViolations(page), []);
  });

  it('changes the password and signs in with it', async () => {
    const other = await apiSession(server);
    await page.goto(`${server.url}/settings`);
    await page.getByLabel('Current password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat the new password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The password must be at least 12 characters.').waitFor();

    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed. Your other sessions were signed out.').waitFor();
    await assert.rejects(other.call('GET', '/api/v1/settings/profile/current'), /401/);
    await assert.rejects(apiSession(server), /401/);

    const fresh = await launchBrowser();
    try {
      const second = await fresh.context.newPage();
      await second.goto(`${server.url}/login`);
      await signIn(second, { email: ADMIN_EMAIL, password: NEW_PASSWORD });
    } finally {
      await fresh.close();
    }
  });
});
