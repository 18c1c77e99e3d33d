import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type DashboardLayout, fetchDashboard, fetchDashboardLayout, saveDashboardLayout } from '../api/dashboard';
import { dashboardKeys, monitorKeys } from '../api/keys';

// Under the counts key: every inbox action and live update that refreshes the counts reloads
// the dashboard too.

export function useDashboardQuery(monitorSearchIds: number[]) {
  return useQuery({
    queryKey: monitorKeys.dashboard(monitorSearchIds),
    queryFn: ({ signal }) => fetchDashboard(monitorSearchIds, signal),
  });
}

export function useDashboardLayoutQuery() {
  return useQuery({ queryKey: dashboardKeys.layout, queryFn: ({ signal }) => fetchDashboardLayout(signal) });
}

export function useSaveDashboardLayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (layout: DashboardLayout) => saveDashboardLayout(layout),
    onSuccess: (saved) => queryClient.setQueryData(dashboardKeys.layout, saved),
  });
}
