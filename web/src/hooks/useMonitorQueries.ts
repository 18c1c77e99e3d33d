// Server state of the Monitor area: providers, groups and saved searches, over TanStack Query.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchLocationConfigurations } from '../api/configurations';
import { fetchFilterLists } from '../api/filters';
import { configurationKeys, filterListKeys, monitorKeys } from '../api/keys';
import { fetchGroup, fetchGroups, fetchGroupsMini, fetchProviders, fetchSearch, fetchSearches } from '../api/monitor';

export const providersQuery = queryOptions({
  queryKey: monitorKeys.providers,
  queryFn: ({ signal }) => fetchProviders(signal),
  // The catalogue changes with a release, not during a session.
  staleTime: Infinity,
});

export function useProvidersQuery() {
  return useQuery(providersQuery);
}

export function useGroupsMiniQuery() {
  return useQuery({ queryKey: monitorKeys.groupsMini, queryFn: ({ signal }) => fetchGroupsMini(signal) });
}

export function useGroupsQuery() {
  return useQuery({ queryKey: monitorKeys.groupList, queryFn: ({ signal }) => fetchGroups(signal) });
}

export function useGroupQuery(id: number) {
  // A newer load replaces an older one in flight: TanStack Query aborts the earlier signal.
  return useQuery({ queryKey: monitorKeys.group(id), queryFn: ({ signal }) => fetchGroup(id, signal) });
}

export function useSearchesQuery() {
  return useQuery({ queryKey: monitorKeys.searchList, queryFn: ({ signal }) => fetchSearches(signal) });
}

export function useSearchQuery(id: number | undefined) {
  return useQuery({
    queryKey: monitorKeys.search(id ?? 0),
    queryFn: ({ signal }) => fetchSearch(id ?? 0, signal),
    enabled: id !== undefined,
  });
}

export function useFilterListsQuery(enabled = true) {
  return useQuery({ queryKey: filterListKeys.all, queryFn: ({ signal }) => fetchFilterLists(signal), enabled });
}

/** Reloads everything the Monitor shows about groups and searches after a change to either. */
export function useRefreshMonitor(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: monitorKeys.groups }),
      queryClient.invalidateQueries({ queryKey: monitorKeys.searches }),
    ]);
  }, [queryClient]);
}

/** The organization's location configurations, for the proximity alert picker. */
export function useLocationConfigurationsQuery() {
  return useQuery({
    queryKey: configurationKeys.every,
    queryFn: ({ signal }) => fetchLocationConfigurations(signal),
  });
}
