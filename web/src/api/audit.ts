// The tenant's audit log (docs/tenant-api.md, "Audit logs"): tenant admins read every change
// made in their tenant, newest first, 50 a page, or download it as CSV.
import { request } from './transport';

export interface AuditActor {
  id: number;
  name: string;
  email: string;
}

export interface AuditRow {
  id: number;
  model: string;
  model_id: string;
  action: string;
  actor: AuditActor | null;
  organization: { id: number; name: string } | null;
  /** The changed fields before the change: an object, text for older rows, null for none. */
  previous_value: unknown;
  new_value: unknown;
  /** RFC 3339. */
  created_at: string;
}

export interface AuditPage {
  data: AuditRow[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}

export interface AuditFilters {
  model?: string;
  action?: string;
  userId?: number;
  /** Days, YYYY-MM-DD; "to" includes its whole day. */
  from?: string;
  to?: string;
}

/** The models and actions the log holds, for the filters (docs/tenant-api.md). */
export const AUDIT_MODELS = [
  'search',
  'group',
  'sharing',
  'filter_list',
  'configuration',
  'alert',
  'settings',
  'announcement',
  'member',
  'invitation',
  'token',
  'user',
  'flag',
  'organization',
  'session',
  'api_token',
  'social_account',
  'assistant',
  'assistant_feedback',
] as const;

export const AUDIT_ACTIONS = [
  'created',
  'updated',
  'deleted',
  'detached',
  'moved',
  'shared',
  'unshared',
  'rotated',
  'invited',
  'accepted',
  'removed',
  'role_changed',
  'revoked',
  'enabled',
  'disabled',
  'login',
  'connected',
  'disconnected',
  'mfa_enabled',
  'mfa_disabled',
  'recovery_code_used',
  'answered',
] as const;

function filterParams(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.model) params.set('model', filters.model);
  if (filters.action) params.set('action', filters.action);
  if (filters.userId) params.set('userId', String(filters.userId));
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  return params;
}

export async function fetchAuditLogs(filters: AuditFilters, page: number, signal?: AbortSignal): Promise<AuditPage> {
  const params = filterParams(filters);
  params.set('page', String(page));
  return (await request<AuditPage>('GET', `/api/v1/tenant/audit-logs?${params}`, { signal })).data;
}

/** The CSV download's address: the same filters, every matching row (the session cookie signs it). */
export function auditLogsCsvUrl(filters: AuditFilters): string {
  const params = filterParams(filters).toString();
  return `/api/v1/tenant/audit-logs.csv${params ? `?${params}` : ''}`;
}
