import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type DashboardLayout, fetchDashboard, fetchDashboardLayout, saveDashboardLayout } from '../api/dashboard';
import { monitorKeys } from './useMonitorQueries';

// Under the counts key: every inbox action and live update that refreshes the counts reloads
// the dashboard too.
export const dashboardKey = (ids: number[]) => [...monitorKeys.counts, 'dashboard', ids] as const;
export const layoutKey = ['dashboard-layout'] as const;

export function useDashboardQuery(monitorSearchIds: number[]) {
  return useQuery({
    queryKey: dashboardKey(monitorSearchIds),
    queryFn: ({ signal }) => fetchDashboard(monitorSearchIds, signal),
  });
}

export function useDashboardLayoutQuery() {
  return useQuery({ queryKey: layoutKey, queryFn: ({ signal }) => fetchDashboardLayout(signal) });
}

export function useSaveDashboardLayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (layout: DashboardLayout) => saveDashboardLayout(layout),
    onSuccess: (saved) => queryClient.setQueryData(layoutKey, saved),
  });
}
