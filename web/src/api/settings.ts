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
  /** How many days of posts the server keeps (--retention, 30 by default). */
  retentionDays: number;
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

/** Blurs pictures until revealed one by one ("blur"), or shows them at once ("show"). */
export async function updateMediaSensitivity(value: Profile['media_sensitivity']): Promise<Profile> {
  return (
    await request<Profile>('PATCH', '/api/v1/settings/profile/update/media-sensitivity', {
      body: { media_sensitivity: value },
    })
  ).data;
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

/** One of the user's API tokens, those a tenant admin made for them included. */
export interface OwnApiToken {
  id: number;
  name: string;
  scopes: string[];
  /** Unix seconds; 0: never. */
  expiresAt: number;
  lastUsedAt: number;
  createdAt: number;
  revokedAt: number;
  /** The tenant admin who made it for the user; null when the user (or the operator's CLI) did. */
  createdBy: { id: number; name: string } | null;
}

export async function fetchOwnTokens(signal?: AbortSignal): Promise<OwnApiToken[]> {
  return (await request<OwnApiToken[]>('GET', '/api/v1/settings/tokens', { signal })).data;
}

/** Revokes one of the user's API tokens at once. */
export async function revokeOwnToken(id: number): Promise<OwnApiToken> {
  return (await request<OwnApiToken>('DELETE', `/api/v1/settings/tokens/${id}`)).data;
}

/** A started two-step enrolment: the key for manual entry, its otpauth:// URI and a QR code of it. */
export interface MfaEnrolment {
  is_mfa_enabled: false;
  pending: true;
  secret: string;
  otpauth_uri: string;
  /** A PNG data URL. */
  qr_code: string;
}

/**
 * Starts (or restarts) turning on two-step verification, proven with the current password;
 * nothing changes at sign-in yet.
 */
export async function startMfa(currentPassword: string): Promise<MfaEnrolment> {
  return (
    await request<MfaEnrolment>('PUT', '/api/v1/settings/profile/mfa', {
      body: { enabled: true, current_password: currentPassword },
    })
  ).data;
}

/** Turns two-step verification on with a code from the app; the reply's recovery codes are shown once. */
export async function confirmMfa(code: string): Promise<string[]> {
  return (
    await request<{ is_mfa_enabled: true; recovery_codes: string[] }>('PUT', '/api/v1/settings/profile/mfa', {
      body: { enabled: true, code },
    })
  ).data.recovery_codes;
}

/** Turns two-step verification off with the current password and a code from the app or a recovery code. */
export async function disableMfa(currentPassword: string, code: string): Promise<void> {
  await request('PUT', '/api/v1/settings/profile/mfa', {
    body: { enabled: false, code, current_password: currentPassword },
  });
}

/** The user's settings state: switches and where two-step verification stands. */
export interface ProfileState {
  is_mfa_enabled: boolean;
  mfa_pending: boolean;
  recovery_codes_left: number;
  is_translation_enrichment_enabled: boolean;
  is_mentioned_locations_enrichment_enabled: boolean;
  is_inbox_streaming_enabled: boolean;
  display_theme: DisplayTheme;
  media_sensitivity: Profile['media_sensitivity'];
}

export async function fetchProfileState(signal?: AbortSignal): Promise<ProfileState> {
  return (await request<ProfileState>('GET', '/api/v1/settings/profile/state', { signal })).data;
}

export interface Contact {
  name: string;
  username: string;
}

/** Changes the user's name and username; the reply is the profile. */
export async function updateContact(contact: Contact): Promise<Profile> {
  return (await request<Profile>('PUT', '/api/v1/settings/profile/contact', { body: contact })).data;
}

/** Opens post cards in the browser's language, or not. */
export async function toggleTranslationEnrichment(): Promise<Profile> {
  return (await request<Profile>('PATCH', '/api/v1/settings/profile/update/is-translation-enrichment-enabled')).data;
}

/** Shows or hides the places a post's text mentions. */
export async function toggleMentionedLocations(): Promise<Profile> {
  return (await request<Profile>('PATCH', '/api/v1/settings/profile/update/is-mentioned-locations-enrichment-enabled'))
    .data;
}
