// The Monitor dashboard's widgets (docs/monitor-api.md, Dashboard).
import { MONITOR, type Post } from './monitor';
import { request } from './transport';

/** Every dashboard widget's data over the user's visible saved searches (or the chosen ones). */
export interface Dashboard {
  resultCount: number;
  unreadCount: number;
  /** Results stored in the last 24 hours. */
  newCount: number;
  /** From the 200 most recent results. */
  topAuthors: { name: string; screenName: string; provider: string; count: number }[];
  topProviders: { provider: string; count: number }[];
  /** Places named in results of the last 30 days. */
  topMentionedLocations: { name: string; countryCode: string; lat: number; lon: number; count: number }[];
  /** Results of the last 30 days by UTC weekday (0 Sunday) and hour; empty cells left out. */
  heatmap: { weekday: number; hour: number; count: number }[];
  /** Results per UTC day (YYYY-MM-DD) and search over the last 30 days. */
  timeline: { date: string; monitorSearchId: number; count: number }[];
  threat: {
    buckets: { from: number; to: number; count: number }[];
    top: { matchId: number; monitorSearchId: number; score: number; reasons: string[]; post: Post }[];
  };
}

export async function fetchDashboard(monitorSearchIds: number[], signal?: AbortSignal): Promise<Dashboard> {
  const params = new URLSearchParams();
  if (monitorSearchIds.length > 0) params.set('monitorSearchIds', monitorSearchIds.join(','));
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return (await request<Dashboard>('GET', `${MONITOR}/dashboard${query}`, { signal })).data;
}

/** The dashboard's widgets, by the names layouts use. */
export type WidgetId =
  | 'result_count'
  | 'unread_count'
  | 'new_count'
  | 'top_authors'
  | 'top_providers'
  | 'top_mentioned_locations'
  | 'heatmap'
  | 'timeline'
  | 'threat';

/** How the user arranges the dashboard: rows of widgets, each at most once (docs/monitor-api.md). */
export interface DashboardLayout {
  rows: { widgets: WidgetId[] }[];
}

/** The user's layout, or the default one when they never saved theirs. */
export async function fetchDashboardLayout(signal?: AbortSignal): Promise<DashboardLayout> {
  return (await request<DashboardLayout>('GET', `${MONITOR}/dashboard/layout`, { signal })).data;
}

export async function saveDashboardLayout(layout: DashboardLayout): Promise<DashboardLayout> {
  return (await request<DashboardLayout>('PUT', `${MONITOR}/dashboard/layout`, { body: layout })).data;
}
