// Against the real binary: two-step verification turned on in Settings with a code computed
// here (RFC 6238 over the setup key the page shows), then sign-out and sign-in with password and
// code; a wrong code is refused with a clear message. Axe checks every screen on the way.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  accessibilityViolations,
  closeAll,
  signedInBrowser,
  startServer,
} from './harness.mjs';

/** Decodes RFC 4648 base32 (no padding, any case, spaces ignored). */
function base32Decode(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out = [];
  for (const ch of text.replace(/[\s=]/g, '').toUpperCase()) {
    const index = alphabet.indexOf(ch);
    if (index < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The RFC 6238 code (HMAC-SHA1, 30-second steps, 6 digits) of secret, stepOffset steps from now. */
function totp(secret, stepOffset = 0) {
  const step = Math.floor(Date.now() / 1000 / 30) + stepOffset;
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(binary).padStart(6, '0');
}

describe('Two-step verification', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer();
    ({ browser, page } = await signedInBrowser(server));
  });

  after(() => closeAll(browser, server));

  it('is turned on in Settings and then asked for at sign-in', async () => {
    assert.equal(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 0).length, 6); // RFC 6238's key, as base32

    await page.goto(`${server.url}/settings`);
    const section = page.getByRole('heading', { name: 'Two-step verification' }).locator('..');
    await section.getByText('Signing in asks for your password only.').waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);

    await section.getByRole('button', { name: 'Turn on' }).click();
    // The current password first: a session alone cannot turn it on.
    const confirmPassword = page.getByRole('form', { name: 'Confirm your password' });
    await confirmPassword.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await confirmPassword.getByRole('button', { name: 'Continue' }).click();
    const form = page.getByRole('form', { name: 'Turn on two-step verification' });
    await form.getByRole('img', { name: /QR code for your authenticator app/ }).waitFor();
    const secret = (await form.getByLabel('Setup key').inputValue()).replace(/\s/g, '');
    assert.match(secret, /^[A-Z2-7]{16,}$/);
    assert.deepEqual(await accessibilityViolations(page), []);

    // A wrong code first: refused, and it stays off.
    const wrong = totp(secret) === '000000' ? '111111' : '000000';
    await form.getByLabel('6-digit code').fill(wrong);
    await form.getByRole('button', { name: 'Turn on' }).click();
    await form.getByText('That code is not valid. Try again.').waitFor();

    await form.getByLabel('6-digit code').fill(totp(secret));
    await form.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' });
    await codes.waitFor();
    assert.equal(await codes.getByRole('listitem').count(), 10);
    await page.getByRole('button', { name: 'Copy codes' }).waitFor();
    await page.getByRole('link', { name: 'Download' }).waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await section.getByText('10 recovery codes left.').waitFor();

    // Sign out, then the password alone asks for the code.
    await page.goto(`${server.url}/logout`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const code = page.getByLabel(/Authentication code/);
    await code.waitFor();
    await page.getByRole('status').getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);

    await code.fill(wrong);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('That code is not valid. Try again.').waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);

    // The code that turned it on is spent; the next step's code is accepted (clock drift).
    await code.fill(totp(secret, 1));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${server.url}/settings`);
    await section.getByText('Signing in asks for a code from your authenticator app.').waitFor();
    assert.deepEqual(await accessibilityViolations(page), []);
  });
});
