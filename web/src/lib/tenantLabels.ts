// Names and labels the tenant portal's screens share.
import type { OrganizationSetting, Role, TenantACL } from '../api/tenant';

export const roles: { value: Role; label: string }[] = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
  { value: 'owner', label: 'Owner' },
];

/** The products a subscription may include, as the access flags name them. */
export const accessFlags: { name: keyof TenantACL; label: string }[] = [
  { name: 'beacon', label: 'Beacon' },
  { name: 'pro', label: 'Locate Pro' },
  { name: 'enterprise', label: 'Locate Enterprise' },
  { name: 'locate_api', label: 'Locate API' },
];

/** A token's scopes as offered; "user" stands for none: the token acts as its user. */
export const tokenScopes: { value: string; label: string; help: string }[] = [
  { value: 'user', label: 'Acts as the user', help: 'Calls everything the user may call.' },
  { value: 'ingest', label: 'Ingest only', help: 'May only push posts to the ingest API.' },
];

/** What a token's scopes let it do, as the scope menu names them. */
export const tokenScopeLabel = (scopes: string[]) =>
  scopes.length === 0
    ? tokenScopes[0]?.label
    : scopes.map((s) => tokenScopes.find((t) => t.value === s)?.label ?? s).join(', ');

/** A token's revoked or expired state, or null while it works. */
export function tokenLapse(token: { revokedAt: number; expiresAt: number }): 'Revoked' | 'Expired' | null {
  if (token.revokedAt) return 'Revoked';
  if (token.expiresAt && token.expiresAt * 1000 <= Date.now()) return 'Expired';
  return null;
}

/** The Unix second at the end of a yyyy-mm-dd day in the browser's time zone; 0 when empty. */
export function endOfDay(date: string): number {
  if (!date) return 0;
  return Math.floor(new Date(`${date}T23:59:59`).getTime() / 1000);
}

/** The feature flags a tenant admin switches, in the order shown, with what each does. */
export const featureFlags: { name: string; label: string; help: string }[] = [
  { name: 'beacon_sunset', label: 'Beacon sunset', help: 'Hides Beacon and its links from the navigation.' },
  { name: 'share_searches', label: 'Share with individuals', help: 'Saved searches can be shared with single people.' },
  {
    name: 'shared_filter_warning',
    label: 'Shared-filter warning',
    help: 'Warns before a change to a filter others use.',
  },
  { name: 'proximity_notifications', label: 'Proximity alerts', help: 'Alerts on matches near a chosen place.' },
  { name: 'ai_summary_notifications', label: 'AI summary alerts', help: 'Alerts that summarise new matches.' },
  {
    name: 'monitor_global_filter_bar',
    label: 'Global filter bar',
    help: "The search over matches in Monitor's top bar, on every Monitor screen.",
  },
];

export const organizationSettings: { name: OrganizationSetting; label: string; help: string }[] = [
  {
    name: 'is_uspi_compliant',
    label: 'US-persons compliance',
    help: 'Warns before a search of a place in US territory and before every external link, and marks posts about US territory.',
  },
  { name: 'is_moose_mind_enabled', label: 'AI features', help: 'Offers AI summary alerts (with their flag).' },
];
