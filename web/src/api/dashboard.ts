// The Monitor dashboard's widgets (docs/monitor-api.md, Dashboard).
import type { Dashboard, DashboardLayout } from './contracts.gen';
import { MONITOR } from './monitor';
import { request } from './transport';

export type { Dashboard, DashboardLayout, WidgetId } from './contracts.gen';

export async function fetchDashboard(monitorSearchIds: number[], signal?: AbortSignal): Promise<Dashboard> {
  const params = new URLSearchParams();
  if (monitorSearchIds.length > 0) params.set('monitorSearchIds', monitorSearchIds.join(','));
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return (await request<Dashboard>('GET', `${MONITOR}/dashboard${query}`, { signal })).data;
}

/** The user's layout, or the default one when they never saved theirs. */
export async function fetchDashboardLayout(signal?: AbortSignal): Promise<DashboardLayout> {
  return (await request<DashboardLayout>('GET', `${MONITOR}/dashboard/layout`, { signal })).data;
}

export async function saveDashboardLayout(layout: DashboardLayout): Promise<DashboardLayout> {
  return (await request<DashboardLayout>('PUT', `${MONITOR}/dashboard/layout`, { body: layout })).data;
}
