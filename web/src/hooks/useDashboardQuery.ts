import { useQuery } from '@tanstack/react-query';
import { fetchDashboard } from '../api/dashboard';
import { monitorKeys } from './useMonitorQueries';

// Under the counts key: every inbox action and live update that refreshes the counts reloads
// the dashboard too.
export const dashboardKey = (ids: number[]) => [...monitorKeys.counts, 'dashboard', ids] as const;

export function useDashboardQuery(monitorSearchIds: number[]) {
  return useQuery({
    queryKey: dashboardKey(monitorSearchIds),
    queryFn: ({ signal }) => fetchDashboard(monitorSearchIds, signal),
  });
}
