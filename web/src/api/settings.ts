// The signed-in user's profile and organization (settings pages, the shell).
import { request } from './transport';

export type DisplayTheme = 'light' | 'dark' | 'system';

export interface Profile {
  id: number;
  name: string;
  email: string;
  username: string;
  is_mfa_enabled: boolean;
  is_translation_enrichment_enabled: boolean;
  is_mentioned_locations_enrichment_enabled: boolean;
  is_inbox_streaming_enabled: boolean;
  display_theme: DisplayTheme;
  media_sensitivity: 'blur' | 'show';
  is_tenant_admin: boolean;
  role: 'owner' | 'admin' | 'member';
  acl: {
    beacon: boolean;
    pro: boolean;
    enterprise: boolean;
    locate_api: boolean;
    rfi: boolean;
    intel_reports: boolean;
  };
  organization: {
    id: number;
    name: string;
    crm_id: string;
    is_uspi_compliant: boolean;
    is_moose_mind_enabled: boolean;
    feature_flags: Record<string, boolean>;
    monthly_data_limit: number;
    asset_limit: number;
  };
  tenant: {
    id: number;
    name: string;
    logout: boolean;
    support_email: string;
    /** The designated tenant that proximity alerts are not offered to. */
    is_ecs: boolean;
  };
  social_accounts: unknown[];
  /** Whether the server can send e-mail (it was started with an SMTP server). */
  emailDelivery: boolean;
  /** The server has a translation server (--translate-url); without one translating is off. */
  translation: boolean;
  /** Which other products this deployment links to (the operator gave their addresses). */
  portals: { compliance: boolean; rfi: boolean; intel_reports: boolean };
}

export interface OrganizationMember {
  id: number;
  email: string;
  username: string;
  name: string;
  role: Profile['role'];
}

export interface Organization {
  id: number;
  name: string;
  crm_id: string;
  users: OrganizationMember[];
  /** Whether a webhook signing secret exists; the secret itself is only ever shown once. */
  hasWebhookSecret: boolean;
}

export async function fetchProfile(signal?: AbortSignal): Promise<Profile> {
  return (await request<Profile>('GET', '/api/v1/settings/profile/current', { signal })).data;
}

export async function updateDisplayTheme(displayTheme: DisplayTheme): Promise<Profile> {
  return (
    await request<Profile>('PATCH', '/api/v1/settings/profile/update/display-theme', {
      body: { display_theme: displayTheme },
    })
  ).data;
}

/** Turns the live arrival of new matches in the inbox on or off. */
export async function toggleInboxStreaming(): Promise<Profile> {
  return (await request<Profile>('PATCH', '/api/v1/settings/profile/update/is-inbox-streaming-enabled')).data;
}

export async function fetchOrganization(signal?: AbortSignal): Promise<Organization> {
  // The organization comes wrapped twice: {"data": {"data": {...}}}.
  return (await request<{ data: Organization }>('GET', '/api/v1/settings/organizations/current', { signal })).data.data;
}

/**
 * Generates the organization's webhook signing secret, or replaces it (owners and admins). The
 * reply is the only time the secret is shown.
 */
export async function rotateWebhookSecret(organizationId: number): Promise<string> {
  return (await request<{ webhookSecret: string }>('PUT', `/api/v1/settings/organizations/${organizationId}/webhook`))
    .data.webhookSecret;
}

/** One of the user's signed-in sessions (a browser on a device). */
export interface SignedInSession {
  id: string;
  /** Browser and system, e.g. "Firefox on Linux". */
  device: string;
  address: string;
  /** Unix seconds. */
  createdAt: number;
  lastSeenAt: number;
  /** The session making this request. */
  current: boolean;
}

export async function fetchSessions(signal?: AbortSignal): Promise<SignedInSession[]> {
  return (await request<SignedInSession[]>('GET', '/api/v1/settings/sessions', { signal })).data;
}

/** Signs one session out at once; without an id, every session but this one. */
export async function endSessions(id?: string): Promise<number> {
  const path = id === undefined ? '/api/v1/settings/sessions' : `/api/v1/settings/sessions/${id}`;
  return (await request<{ ended: number }>('DELETE', path)).data.ended;
}

export interface PasswordChange {
  current_password: string;
  password: string;
  password_confirmation: string;
}

/** Changes the password; every other session is signed out. */
export async function changePassword(change: PasswordChange): Promise<void> {
  await request<{ changed: boolean }>('PUT', '/api/v1/settings/profile/password', { body: change });
}
