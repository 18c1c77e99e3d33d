// Against the real binary: the organization's webhook secret generated in Settings, then the
// alerts of an existing saved search edited on its page. A webhook and an e-mail digest are tried
// with Send test (a loopback receiver checks the Standard Webhooks signature with that secret, a
// loopback SMTP server takes the mail to the user's own address; another is refused), saved, and still there after a reload; closing with an
// unsaved change asks first.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ADMIN_EMAIL,
  DEADLINE_MS,
  accessibilityViolations,
  apiSession,
  closeAll,
  listen,
  signedInBrowser,
  startServer,
  startSmtp,
} from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);
const TEAM = 'team@example.com';

/** A loopback HTTP receiver that records each webhook call. */
async function startReceiver() {
  const calls = [];
  const server = createHttpServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      calls.push({ headers: request.headers, body });
      response.end();
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/hook`, calls, close: () => new Promise((done) => server.close(done)) };
}

/** Checks a webhook call as the Standard Webhooks reference does: HMAC-SHA256 of id.timestamp.body. */
function signatureValid({ headers, body }, secret) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest('base64');
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((signature) => signature === `v1,${expected}`);
}

describe('Alerts of a saved search', () => {
  let server;
  let browser;
  let page;
  let receiver;
  let smtp;
  let secret;
  let searchId;
  let api;

  before(async () => {
    await mkdir(shots, { recursive: true });
    receiver = await startReceiver();
    smtp = await startSmtp();
    server = await startServer({
      // The webhook receiver is on loopback, which the outbound guard refuses unless told.
      env: { SIGHTLINE_SMTP_URL: smtp.url, SIGHTLINE_ALLOW_PRIVATE_WEBHOOKS: '127.0.0.1/32' },
    });
    api = await apiSession(server);
    assert.equal((await api.call('GET', '/api/v1/settings/profile/current')).emailDelivery, true);
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    ({ id: searchId } = await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'Harbour strikes',
      keywords: 'harbour',
      providers: ['reddit'],
    }));
    ({ browser, page } = await signedInBrowser(server));
  });

  after(async () => {
    try {
      await closeAll(browser, server);
    } finally {
      await receiver?.close();
      await smtp?.close();
    }
  });

  const openAlerts = async () => {
    await page.getByRole('button', { name: 'Alerts', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Alerts of “Harbour strikes”' });
    await drawer.getByRole('combobox', { name: 'E-mail alerts' }).waitFor();
    return drawer;
  };
  const webhookInterval = (drawer) => drawer.getByRole('textbox', { name: 'Webhook', exact: true }).inputValue();

  it('generates the webhook signing secret in Settings, shown once', async () => {
    await page.goto(`${server.url}/settings`);
    await page.getByRole('button', { name: 'Generate secret' }).click();
    secret = await page.getByRole('textbox', { name: 'Webhook signing secret' }).inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=?$/);
    await page.reload();
    await page.getByRole('button', { name: 'Rotate secret' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Webhook signing secret' }).count(), 0);
  });

  it('tries, saves and keeps a webhook and an e-mail digest', async () => {
    await page.goto(`${server.url}/monitor/${searchId}`);
    let drawer = await openAlerts();
    const save = drawer.getByRole('button', { name: 'Save alerts' });
    assert.equal(await save.isDisabled(), true);
    assert.equal(await webhookInterval(drawer), 'Off');
    await drawer.getByText(/Nothing has been delivered yet/).waitFor();

    const webhook = drawer.getByRole('group', { name: 'Webhook' });
    const webhookField = webhook.getByRole('textbox', { name: /Add a webhook URL/ });
    await webhookField.fill('ftp://hooks.example.com');
    await webhook.getByRole('button', { name: 'Add to Webhook' }).click();
    await webhook.getByText('The webhook must be an http or https URL.').waitFor();
    await webhookField.fill(receiver.url);
    await webhook.getByRole('button', { name: 'Add to Webhook' }).click();
    assert.equal(await webhookInterval(drawer), 'Immediate');

    const digest = drawer.getByRole('group', { name: 'E-mail digest' });
    await digest.getByRole('combobox', { name: 'E-mail digest' }).click();
    await page.getByRole('option', { name: 'Weekly' }).click();
    await digest.getByRole('textbox', { name: /Add an e-mail address/ }).fill(TEAM);
    await digest.getByRole('button', { name: 'Add to E-mail digest' }).click();
    assert.deepEqual(await accessibilityViolations(page), []);

    await webhook.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    await webhook.getByText('Test delivered.').waitFor();
    assert.equal(receiver.calls.length, 1);
    assert.ok(signatureValid(receiver.calls[0], secret), 'the test call carries a valid Standard Webhooks signature');

    // A test e-mail reaches only the user or their organization's members: the team's address is
    // refused, the user's own (the digest's default destination) receives it.
    await digest.getByRole('button', { name: `Send test to ${TEAM}` }).click();
    await digest
      .getByText('E-mail can only be sent to your own address or to a member of your organization.')
      .waitFor();
    await digest.getByRole('button', { name: `Send test to ${ADMIN_EMAIL}` }).click();
    await digest.getByText('Test delivered.').waitFor();
    assert.ok(
      smtp.messages.some((m) => m.includes(ADMIN_EMAIL)) && !smtp.messages.some((m) => m.includes(TEAM)),
      'the SMTP server received the test mail to the user only',
    );
    await page.screenshot({ path: new URL('alerts.png', shots).pathname, animations: 'disabled' });

    await save.click();
    await page.getByText('Notification settings saved').waitFor();
    assert.equal(await save.isDisabled(), true);

    await page.reload();
    drawer = await openAlerts();
    assert.equal(await webhookInterval(drawer), 'Immediate');
    await drawer.getByRole('list', { name: 'Destinations of Webhook' }).getByText(receiver.url).waitFor();
    assert.equal(await drawer.getByRole('combobox', { name: 'E-mail digest' }).textContent(), 'Weekly');
    await drawer.getByRole('list', { name: 'Destinations of E-mail digest' }).getByText(TEAM).waitFor();
    assert.equal(await drawer.getByRole('button', { name: 'Save alerts' }).isDisabled(), true);
  });

  it('asks before closing with an unsaved change', async () => {
    await page.goto(`${server.url}/monitor/${searchId}`);
    const drawer = await openAlerts();
    await drawer.getByRole('button', { name: `Remove ${receiver.url}` }).click();
    assert.equal(await webhookInterval(drawer), 'Off');
    await drawer.getByRole('button', { name: 'Close alerts' }).click();
    const ask = page.getByRole('dialog', { name: 'Save the alerts before leaving?' });
    await ask.getByRole('button', { name: 'Discard and leave' }).click();
    await drawer.waitFor({ state: 'detached' });

    const again = await openAlerts();
    assert.equal(await webhookInterval(again), 'Immediate');
  });

  it('calls the webhook when a match arrives and lists the delivery', async () => {
    await api.call('POST', '/api/v1/ingest/posts', [
      {
        provider: 'reddit',
        native_id: `alerts-e2e-${process.pid}`,
        content_type: 'thread_post',
        author_name: 'Dock worker',
        title_text: 'Harbour strike',
        content_text: 'The harbour is closed by a strike this morning.',
        published_at: new Date().toISOString(),
        post_link: 'https://example.com/r/harbour',
      },
    ]);
    // The scheduler looks for new matches every few seconds; a minute is ample, and a test
    // that waits that long has failed.
    const deadline = Date.now() + DEADLINE_MS;
    // Saved without a grouping, the webhook groups by story: the match's story is told of once.
    const isAlert = (call) => JSON.parse(call.body).type === 'monitor.story';
    while (!receiver.calls.some(isAlert) && Date.now() < deadline) await sleep(250);
    const call = receiver.calls.find(isAlert);
    assert.ok(call, 'the webhook was called with the match');
    assert.ok(signatureValid(call, secret));
    assert.equal(JSON.parse(call.body).matches[0].text.includes('harbour'), true);
    assert.equal(JSON.parse(call.body).escalation, 'first_match');

    await page.goto(`${server.url}/monitor/${searchId}`);
    const drawer = await openAlerts();
    const row = drawer.getByRole('table', { name: 'Deliveries' }).getByRole('row').filter({ hasText: receiver.url });
    await row.getByText('Sent').waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    assert.deepEqual([...cells.slice(0, 4), cells[5]], ['Webhook', receiver.url, '1', 'Sent', '1']);
    assert.match(cells[4], /^Story .+: the story first matched$/);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: new URL('alerts-history.png', shots).pathname, animations: 'disabled' });
  });
});
