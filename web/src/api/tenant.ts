// The tenant portal's calls (docs/tenant-api.md): the tenant's organizations, users and API
// tokens, for tenant admins. Times are Unix seconds, 0 for never.
import { request } from './transport';

export interface TenantOrganization {
  id: number;
  name: string;
  is_uspi_compliant: boolean;
  is_moose_mind_enabled: boolean;
  feature_flags: Record<string, boolean>;
  /** 0 is unlimited. */
  monthly_data_limit: number;
  /** 0 is unlimited. */
  asset_limit: number;
  /** Notifications each saved search sends in 24 hours before the rest wait for its digest; 0 is the default (50). */
  alert_daily_limit: number;
  usage: { members: number; savedSearches: number; assets: number; matchesThisMonth: number };
  createdAt: number;
}

export type OrganizationSetting = 'is_uspi_compliant' | 'is_moose_mind_enabled';

export type Role = 'owner' | 'admin' | 'member';

export interface TenantACL {
  beacon: boolean;
  pro: boolean;
  enterprise: boolean;
  locate_api: boolean;
}

export interface TenantUser {
  id: number;
  name: string;
  email: string;
  organization: { id: number; name: string };
  role: Role;
  is_tenant_admin: boolean;
  is_mfa_enabled: boolean;
  acl: TenantACL;
  disabled: boolean;
  disabledAt: number;
  createdAt: number;
}

export interface NewTenantUser {
  name: string;
  email: string;
  organizationId: number;
  role: Role;
  acl: TenantACL;
  password: string;
}

export interface TenantToken {
  id: number;
  name: string;
  /** A disabled user's tokens are refused until the user is enabled again. */
  user: { id: number; name: string; email: string; disabled: boolean };
  scopes: string[];
  expiresAt: number;
  lastUsedAt: number;
  createdAt: number;
  revokedAt: number;
  /** The tenant admin who made it for its user; null when the user or the operator's CLI did. */
  createdBy: { id: number; name: string } | null;
}

export interface NewTenantToken {
  name: string;
  userId: number;
  scopes: string[];
  /** Unix seconds; 0 lasts until revoked (only for one's own token). */
  expiresAt: number;
}

/** A token just made: the record and its secret, which the server never returns again. */
export type CreatedTenantToken = TenantToken & { token: string };

export async function fetchTenantOrganizations(signal?: AbortSignal): Promise<TenantOrganization[]> {
  return (await request<TenantOrganization[]>('GET', '/api/v1/tenant/organizations', { signal })).data;
}

export async function setFeatureFlag(
  organizationId: number,
  flag: string,
  enabled: boolean,
): Promise<TenantOrganization> {
  const path = `/api/v1/tenant/organizations/${organizationId}/feature-flags/${encodeURIComponent(flag)}`;
  return (await request<TenantOrganization>('PUT', path, { body: { enabled } })).data;
}

export async function setOrganizationSetting(
  organizationId: number,
  setting: OrganizationSetting,
  enabled: boolean,
): Promise<TenantOrganization> {
  const path = `/api/v1/tenant/organizations/${organizationId}/settings/${setting}`;
  return (await request<TenantOrganization>('PUT', path, { body: { enabled } })).data;
}

export interface OrganizationLimits {
  /** Matches a month; 0 lifts the limit. */
  monthly_data_limit: number;
  /** Saved searches, location configurations and assets together; 0 lifts the limit. */
  asset_limit: number;
  /** Notifications a saved search sends in 24 hours, 1 to 10,000; 0 for the default (50). */
  alert_daily_limit: number;
}

export async function setOrganizationLimits(
  organizationId: number,
  limits: OrganizationLimits,
): Promise<TenantOrganization> {
  const path = `/api/v1/tenant/organizations/${organizationId}/limits`;
  return (await request<TenantOrganization>('PUT', path, { body: limits })).data;
}

export async function fetchTenantUsers(signal?: AbortSignal): Promise<TenantUser[]> {
  return (await request<TenantUser[]>('GET', '/api/v1/tenant/users', { signal })).data;
}

export async function createTenantUser(user: NewTenantUser): Promise<TenantUser> {
  return (await request<TenantUser>('POST', '/api/v1/tenant/users', { body: user })).data;
}

export async function updateTenantUser(id: number, change: { role: Role; acl: TenantACL }): Promise<TenantUser> {
  return (await request<TenantUser>('PUT', `/api/v1/tenant/users/${id}`, { body: change })).data;
}

export async function setTenantUserDisabled(id: number, disabled: boolean): Promise<TenantUser> {
  const path = `/api/v1/tenant/users/${id}/${disabled ? 'disable' : 'enable'}`;
  return (await request<TenantUser>('PUT', path, { body: {} })).data;
}

/** Turns off the two-step verification of a user who lost their authenticator. */
export async function resetTenantUserMfa(id: number): Promise<TenantUser> {
  return (await request<TenantUser>('PUT', `/api/v1/tenant/users/${id}/reset-mfa`, { body: {} })).data;
}

export async function fetchTenantTokens(signal?: AbortSignal): Promise<TenantToken[]> {
  return (await request<TenantToken[]>('GET', '/api/v1/tenant/tokens', { signal })).data;
}

export async function createTenantToken(token: NewTenantToken): Promise<CreatedTenantToken> {
  return (await request<CreatedTenantToken>('POST', '/api/v1/tenant/tokens', { body: token })).data;
}

export async function revokeTenantToken(id: number): Promise<TenantToken> {
  return (await request<TenantToken>('DELETE', `/api/v1/tenant/tokens/${id}`)).data;
}
