// The live channel end to end: the real binary and the real pusher-js client, authorized through
// /broadcasting/auth with the bearer token, as the web app connects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Pusher from 'pusher-js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEADLINE_MS, startServer } from './harness.mjs';

/** Resolves with the first of the named events on a pusher-js channel or connection. */
function first(emitter, names, timeoutMs = DEADLINE_MS) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`none of ${names.join(', ')} within ${timeoutMs} ms`)), timeoutMs);
    for (const name of names) {
      emitter.bind(name, (data) => {
        clearTimeout(timer);
        resolve({ name, data });
      });
    }
  });
}

describe('live channel', () => {
  let server;
  let token;
  let userId;
  let config;
  let pusher;

  before(async () => {
    server = await startServer();
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    assert.equal(login.status, 200);
    const { data } = await login.json();
    token = data.token;
    userId = data.user.id;
  });

  after(async () => {
    pusher?.disconnect();
    await server?.stop();
  });

  it('gives a signed-in page its connection settings', async () => {
    const anonymous = await fetch(`${server.url}/api/v1/live/config`);
    assert.equal(anonymous.status, 401);
    const response = await fetch(`${server.url}/api/v1/live/config`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
    config = (await response.json()).data;
    const { port } = new URL(server.url);
    assert.match(config.key, /^[0-9a-f]{20}$/);
    assert.deepEqual(
      { host: config.host, port: config.port, tls: config.tls, pingInterval: config.pingInterval },
      { host: '127.0.0.1', port: Number(port), tls: false, pingInterval: 30_000 },
    );
  });

  it('authorizes pusher-js and subscribes it to the user’s private channel', async () => {
    pusher = new Pusher(config.key, {
      cluster: 'sightline', // pusher-js requires one; wsHost is where it connects
      wsHost: config.host,
      wsPort: config.port,
      forceTLS: config.tls,
      enabledTransports: ['ws'],
      disableStats: true,
      channelAuthorization: {
        endpoint: `${server.url}${config.authEndpoint}`,
        transport: 'ajax',
        headers: { Authorization: `Bearer ${token}` },
      },
    });
    const channel = pusher.subscribe(`private-user.${userId}`);
    const outcome = await first(channel, ['pusher:subscription_succeeded', 'pusher:subscription_error']);
    assert.equal(outcome.name, 'pusher:subscription_succeeded', JSON.stringify(outcome.data));
    assert.equal(pusher.connection.state, 'connected');
    assert.match(pusher.connection.socket_id, /^\d+\.\d+$/);
  });

  it('refuses another user’s channel', async () => {
    const channel = pusher.subscribe(`private-user.${userId + 1}`);
    const outcome = await first(channel, ['pusher:subscription_succeeded', 'pusher:subscription_error']);
    assert.equal(outcome.name, 'pusher:subscription_error');
    assert.equal(outcome.data.status, 403);
  });

  it('tells pusher-js to reconnect when the server shuts down', async () => {
    const closed = first(pusher.connection, ['error']);
    const reconnecting = new Promise((resolve) => {
      pusher.connection.bind('state_change', ({ current }) => current === 'connecting' && resolve());
    });
    await server.stop();
    const { data } = await closed;
    assert.deepEqual(data, { type: 'PusherError', data: { code: 4200, message: 'Server is restarting' } });
    await reconnecting;
  });
});
