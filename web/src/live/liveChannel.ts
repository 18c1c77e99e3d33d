// The live channel (monitor-area.md section 7): laravel-echo over pusher-js to the server's
// Pusher-protocol socket, the user's private channel authorized through /broadcasting/auth.
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import type { LiveEvent, LiveEventPayloads } from '../api/contracts.gen';
import { authorizeChannel, type LiveConfig } from '../api/live';
import { renewToken } from '../api/transport';

export const DEFAULT_PING_INTERVAL_MS = 30_000;

export { LIVE_EVENTS } from '../api/contracts.gen';

/**
 * Authorizes a subscription; when the server refuses, the token is renewed once and the request
 * repeated, and a second failure goes back to pusher-js, which reports it.
 */
export async function authorizeWithRetry(
  socketId: string,
  channelName: string,
  authorize: typeof authorizeChannel = authorizeChannel,
  renew: () => Promise<unknown> = renewToken,
): Promise<{ auth: string }> {
  try {
    return await authorize(socketId, channelName);
  } catch {
    await renew();
    return authorize(socketId, channelName);
  }
}

/** A handler per event, given the payload the server defines for it (contracts.gen.ts). */
export type LiveHandlers = { [E in LiveEvent]?: (payload: LiveEventPayloads[E]) => void };

/**
 * Connects and listens on private-user.{userId}; the returned function disconnects. onSubscribed
 * runs after every successful (re)subscription: events sent while the channel was not subscribed
 * are not replayed, so the caller reloads what they would have changed.
 */
export function connectLive(
  config: LiveConfig,
  userId: number,
  handlers: LiveHandlers,
  onSubscribed?: () => void,
): () => void {
  const echo = new Echo({
    broadcaster: 'pusher',
    key: config.key,
    Pusher,
    cluster: 'sightline', // pusher-js insists on one; wsHost says where to connect
    wsHost: config.host,
    wsPort: config.port,
    wssPort: config.port,
    forceTLS: config.tls,
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    activityTimeout: config.pingInterval || DEFAULT_PING_INTERVAL_MS,
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) => {
        authorizeWithRetry(socketId, channelName).then(
          (data) => callback(null, data),
          (error: unknown) => {
            console.error('The live channel could not be authorized', error);
            callback(error instanceof Error ? error : new Error(String(error)), null);
          },
        );
      },
    },
  });
  const channel = echo.private(`user.${userId}`);
  if (onSubscribed) channel.subscribed(onSubscribed);
  for (const [event, handler] of Object.entries(handlers)) {
    // A leading dot tells Echo the name is the event's own, without a namespace.
    channel.listen(`.${event}`, handler);
  }
  return () => echo.disconnect();
}
