// The live channel's settings and private-channel signing (pusher-js).
import { request } from './transport';

export interface LiveConfig {
  key: string;
  host: string;
  port: number;
  tls: boolean;
  /** Milliseconds between pings. */
  pingInterval: number;
}

export async function fetchLiveConfig(signal?: AbortSignal): Promise<LiveConfig> {
  return (await request<LiveConfig>('GET', '/api/v1/live/config', { signal })).data;
}

/** Signs a private channel for this socket; the bearer token says who asks. */
export async function authorizeChannel(socketId: string, channelName: string): Promise<{ auth: string }> {
  // /broadcasting/auth answers without the data envelope, as pusher-js expects.
  return (
    await request<{ auth: string }>('POST', '/broadcasting/auth', {
      body: { socket_id: socketId, channel_name: channelName },
      envelope: false,
    })
  ).data;
}
