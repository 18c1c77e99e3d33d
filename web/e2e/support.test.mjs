// Against the real binary with a loopback SMTP server: a user writes to support from the Help
// drawer and the message reaches the operator's --support-email, replies going to the user.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN_EMAIL, accessibilityViolations, closeAll, signedInBrowser, startServer, startSmtp } from './harness.mjs';

const SUPPORT = 'help@operator.example';

describe('Support requests', () => {
  let server;
  let smtp;
  let browser;
  let page;

  before(async () => {
    smtp = await startSmtp();
    server = await startServer({ env: { SIGHTLINE_SMTP_URL: smtp.url, SIGHTLINE_SUPPORT_EMAIL: SUPPORT } });
    ({ browser, page } = await signedInBrowser(server));
  });

  after(async () => {
    try {
      await closeAll(browser, server);
    } finally {
      await smtp?.close();
    }
  });

  it('mails what the user writes in Help to the support address', async () => {
    await page.getByRole('button', { name: 'Help and support' }).click();
    const drawer = page.getByRole('dialog', { name: 'Help and support' });
    await drawer.getByRole('textbox', { name: 'Your message' }).fill('The map stays blank since Monday.');
    assert.deepEqual(await accessibilityViolations(page), []);
    await drawer.getByRole('button', { name: 'Send to support' }).click();
    await drawer.getByText(`Your message was sent to ${SUPPORT}.`).waitFor();
    let message;
    for (let tries = 0; tries < 100 && !message; tries++) {
      message = smtp.messages.find((m) => m.includes(SUPPORT));
      if (!message) await sleep(100);
    }
    assert.ok(message, 'no e-mail to the support address');
    assert.match(message, new RegExp(`Reply-To: <?${ADMIN_EMAIL.replace('.', '\\.')}>?`, 'i'));
    assert.match(message.replace(/=\r\n/g, ''), /> The map stays blank since Monday\./);
  });
});
