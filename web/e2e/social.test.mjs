// Against the real binary: a social account connected through a network's OAuth 2 sign-in (a
// loopback provider that approves at once and checks the PKCE verifier), then disconnected.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { accessibilityViolations, closeAll, listen, signedInBrowser, startServer } from './harness.mjs';

const screenshots = new URL('../test-results/', import.meta.url);

/** The network: /authorize approves and sends the browser back; /token wants the verifier. */
async function startNetwork() {
  const challenges = new Map();
  const network = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://network');
    if (url.pathname === '/authorize') {
      const code = `code-${challenges.size + 1}`;
      challenges.set(code, url.searchParams.get('code_challenge'));
      const back = new URL(url.searchParams.get('redirect_uri'));
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state'));
      response.writeHead(302, { Location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      let body = '';
      for await (const chunk of request) body += chunk;
      const form = new URLSearchParams(body);
      const verifier = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      const good = challenges.get(form.get('code')) === verifier;
      challenges.delete(form.get('code'));
      response.writeHead(good ? 200 : 400, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify(good ? { access_token: 'e2e-token', token_type: 'bearer' } : { error: 'invalid_grant' }),
      );
      return;
    }
    if (url.pathname === '/me' && request.headers.authorization === 'Bearer e2e-token') {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ id: '1001', username: 'watchfloor' }));
      return;
    }
    response.writeHead(404).end();
  });
  return { network, url: `http://127.0.0.1:${await listen(network)}` };
}

describe('Social integrations', () => {
  let server;
  let browser;
  let page;
  let network;

  before(async () => {
    const started = await startNetwork();
    network = started.network;
    const config = join(await mkdtemp(join(tmpdir(), 'sightline-oauth-')), 'oauth.json');
    await writeFile(
      config,
      JSON.stringify({
        providers: [
          {
            name: 'mastodon',
            displayName: 'Mastodon',
            clientId: 'sightline-e2e',
            clientSecret: 'e2e-secret',
            authUrl: `${started.url}/authorize`,
            tokenUrl: `${started.url}/token`,
            userInfoUrl: `${started.url}/me`,
          },
        ],
      }),
    );
    server = await startServer({ env: { SIGHTLINE_OAUTH_CONFIG: config } });
    ({ browser, page } = await signedInBrowser(server));
  });

  after(async () => {
    try {
      await closeAll(browser, server);
    } finally {
      // Even when closing failed: an open network keeps the test process running.
      network?.close();
    }
  });

  it('connects an account through the network and disconnects it', async () => {
    await page.goto(`${server.url}/settings`);
    const networks = page.getByRole('list', { name: 'Social networks' });
    await networks.getByText('Not connected').waitFor();
    await networks.getByRole('link', { name: 'Connect a Mastodon account' }).click();

    await page.waitForURL((url) => url.pathname === '/settings' && url.search === '');
    await page.getByText('Connected Mastodon account watchfloor').waitFor();
    await networks.getByText(/watchfloor \(since/).waitFor();
    await page.getByRole('heading', { name: 'Social integrations' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: new URL('settings-social.png', screenshots).pathname });
    assert.deepEqual(await accessibilityViolations(page), []);

    await networks.getByRole('button', { name: 'Disconnect Mastodon account watchfloor' }).click();
    await page
      .getByRole('dialog', { name: 'Disconnect watchfloor?' })
      .getByRole('button', { name: 'Disconnect' })
      .click();
    await page.getByText('Account disconnected').waitFor();
    await networks.getByText('Not connected').waitFor();
  });
});
