import { request } from './transport';

/** A network the operator registered Sightline with (an OAuth 2 app). */
export interface SocialProvider {
  name: string;
  display_name: string;
  /** Where the browser goes to connect an account: a full page load through the network. */
  connect_url: string;
}

/** One of the user's connected accounts; its token stays on the server. */
export interface SocialAccount {
  id: number;
  account_id: string;
  account_name: string;
  provider: SocialProvider;
  connected_at: string;
}

export async function fetchSocialProviders(signal?: AbortSignal): Promise<SocialProvider[]> {
  return (await request<SocialProvider[]>('GET', '/api/v1/settings/social/providers', { signal })).data;
}

export async function fetchSocialAccounts(signal?: AbortSignal): Promise<SocialAccount[]> {
  return (await request<SocialAccount[]>('GET', '/api/v1/settings/social/integrations', { signal })).data;
}

/** Forgets the connected account and its token. */
export async function disconnectSocialAccount(id: number): Promise<void> {
  await request<{ disconnected: number }>('DELETE', `/api/v1/settings/social/logout/${id}`);
}
