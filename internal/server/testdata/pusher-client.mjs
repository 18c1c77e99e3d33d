// The real pusher-js client, for the live-channel tests of internal/server: it connects to a
// Sightline node, authorizes its subscriptions through /broadcasting/auth with a bearer token,
// and reports what happens as JSON lines on stdout until its stdin closes.
import { createRequire } from 'node:module';

const { SIGHTLINE_WEB_DIR, LIVE_URL, LIVE_KEY, LIVE_HOST, LIVE_PORT, LIVE_TOKEN, LIVE_CHANNELS } = process.env;
const Pusher = createRequire(`${SIGHTLINE_WEB_DIR}/package.json`)('pusher-js');
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

const pusher = new Pusher(LIVE_KEY, {
  cluster: 'sightline', // required by pusher-js; wsHost below is what it connects to
  wsHost: LIVE_HOST,
  wsPort: Number(LIVE_PORT),
  forceTLS: false,
  enabledTransports: ['ws'],
  disableStats: true,
  channelAuthorization: {
    endpoint: `${LIVE_URL}/broadcasting/auth`,
    transport: 'ajax',
    headers: { Authorization: `Bearer ${LIVE_TOKEN}` },
  },
});
pusher.connection.bind('state_change', ({ current }) => print({ state: current }));
pusher.connection.bind('error', (error) => print({ error: error?.error?.data ?? error?.data ?? String(error) }));
for (const name of LIVE_CHANNELS.split(',')) {
  const channel = pusher.subscribe(name);
  channel.bind('pusher:subscription_succeeded', () => print({ subscribed: name }));
  channel.bind('pusher:subscription_error', (error) => print({ refused: name, status: error.status }));
  channel.bind_global((event, data) => {
    if (!event.startsWith('pusher:')) print({ channel: name, event, data });
  });
}
process.stdin.on('end', () => {
  pusher.disconnect();
  process.exit(0);
});
process.stdin.resume();
