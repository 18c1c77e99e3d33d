// Against the real binary with a loopback SMTP server: the owner invites a colleague in
// Settings, the colleague opens the mailed link, chooses a name and password and lands signed in,
// then signs in again as themselves; the owner removes them and their session stops at once.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  accessibilityViolations,
  apiSession,
  closeAll,
  launchBrowser,
  signedInBrowser,
  signIn,
  startServer,
  startSmtp,
} from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);
const COLLEAGUE = 'colleague@example.test';
const PASSWORD = 'violet harbour lantern 42';

/** Waits (bounded) for a message to the address and returns the invitation link in it. */
async function mailedLink(smtp, to) {
  for (let tries = 0; tries < 100; tries++) {
    const message = smtp.messages.find((m) => m.includes(to));
    if (message) {
      // Quoted-printable text wraps long lines with "=" at their end.
      const text = message.replace(/=\r\n/g, '').replace(/=3D/g, '=');
      const link = /https?:\/\/[^\s"<>]+\/invite\/[A-Za-z0-9_-]+/.exec(text);
      assert.ok(link, `no invitation link in:\n${message}`);
      return link[0];
    }
    await sleep(100);
  }
  throw new Error(`no e-mail to ${to}`);
}

describe('Invitations', () => {
  let server;
  let smtp;
  let browser;
  let page;
  let colleague;

  before(async () => {
    await mkdir(shots, { recursive: true });
    smtp = await startSmtp();
    server = await startServer({ env: { SIGHTLINE_SMTP_URL: smtp.url } });
    ({ browser, page } = await signedInBrowser(server));
    colleague = await launchBrowser();
  });

  after(async () => {
    try {
      await colleague?.close();
      await closeAll(browser, server);
    } finally {
      await smtp?.close();
    }
  });

  it('invites a colleague by e-mail from Settings', async () => {
    // Two Beacon searches show in this month's statistics.
    const api = await apiSession(server);
    await api.call('POST', '/beacon/v1/all', { query: 'flood' });
    await api.call('POST', '/beacon/v1/all', { query: 'harbour' });
    await page.goto(`${server.url}/settings`);
    await page.getByText('No open invitations.').waitFor();
    await page.getByRole('button', { name: 'Invite a colleague' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a colleague' });
    await dialog.getByRole('textbox', { name: 'E-mail address' }).fill(COLLEAGUE);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Admin' }).click();
    assert.deepEqual(await accessibilityViolations(page), []);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${COLLEAGUE}`).waitFor();
    const row = page.getByRole('table', { name: 'Open invitations' }).getByRole('row', { name: new RegExp(COLLEAGUE) });
    await row.getByText('Admin').waitFor();
    await page.getByRole('heading', { name: 'Statistics' }).scrollIntoViewIfNeeded();
    await page.getByRole('img', { name: /^Searches of the organization per month: .* 2$/ }).waitFor();
    await page.getByRole('img', { name: 'Searches per member over the last 12 months: Administrator: 2' }).waitFor();
    const section = (name) =>
      page
        .getByRole('heading', { name, exact: true, level: 2 })
        .locator('xpath=ancestor::div[contains(@class, "MuiPaper-root")][1]');
    await section('Organization').screenshot({
      path: new URL('invitations-members.png', shots).pathname,
      animations: 'disabled',
    });
    await section('Statistics').screenshot({
      path: new URL('invitations-statistics.png', shots).pathname,
      animations: 'disabled',
    });
  });

  it('joins through the mailed link and signs in as the new member', async () => {
    const link = await mailedLink(smtp, COLLEAGUE);
    assert.ok(link.startsWith(`${server.url}/invite/`), link);
    const tab = await colleague.context.newPage();
    await tab.goto(link);
    await tab.getByText('You were invited to Default as an admin.', { exact: false }).waitFor();
    await tab.getByRole('textbox', { name: 'Your name' }).fill('Cy Colleague');
    await tab.getByLabel('Password', { exact: false }).first().fill(PASSWORD);
    await tab.getByLabel('Repeat the password').fill('something else entirely');
    await tab.getByRole('button', { name: 'Join Default' }).click();
    await tab.getByText('The password confirmation does not match.').waitFor();
    await tab.screenshot({ path: new URL('invitations-join.png', shots).pathname, animations: 'disabled' });
    await tab.getByLabel('Repeat the password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Join Default' }).click();
    await tab.waitForURL((url) => !url.pathname.startsWith('/invite/'));

    // Signed in: Settings shows them as an admin of Default.
    await tab.goto(`${server.url}/settings`);
    await tab
      .getByRole('table', { name: 'Members of Default' })
      .getByRole('row', { name: /Cy Colleague/ })
      .waitFor();

    // The link worked once.
    const again = await colleague.context.newPage();
    await again.goto(link);
    await again.getByText('This invitation has already been used.', { exact: false }).waitFor();
    await again.close();

    // Signed out, they sign in with the password they chose.
    await tab.goto(`${server.url}/logout`);
    await tab.waitForURL((url) => url.pathname === '/login');
    await signIn(tab, { email: COLLEAGUE, password: PASSWORD });
    await tab.goto(`${server.url}/settings`);
    await tab.getByText(COLLEAGUE).first().waitFor();
  });

  it('removes the colleague, whose session stops at once', async () => {
    await page.reload();
    const members = page.getByRole('table', { name: 'Members of Default' });
    await members.getByRole('button', { name: 'Remove Cy Colleague' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Cy Colleague?' });
    assert.deepEqual(await accessibilityViolations(page), []);
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Cy Colleague was removed').waitFor();
    await members.getByRole('row', { name: /Cy Colleague/ }).waitFor({ state: 'detached' });

    const [tab] = colleague.context.pages().filter((p) => p.url().endsWith('/settings'));
    await tab.reload();
    await tab.waitForURL((url) => url.pathname === '/login');
    await tab.getByLabel('Email').fill(COLLEAGUE);
    await tab.getByLabel('Password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByText('You are no longer a member of an organization.', { exact: false }).waitFor();
  });
});
