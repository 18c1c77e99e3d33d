// Server state of the Monitor area: providers, groups and saved searches, over TanStack Query.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchLocationConfigurations } from '../api/configurations';
import { fetchFilterLists } from '../api/filters';
import { fetchGroup, fetchGroups, fetchGroupsMini, fetchProviders, fetchSearch, fetchSearches } from '../api/monitor';

export const monitorKeys = {
  all: ['monitor'] as const,
  providers: ['monitor', 'providers'] as const,
  groups: ['monitor', 'groups'] as const,
  groupsMini: ['monitor', 'groups', 'mini'] as const,
  groupList: ['monitor', 'groups', 'list'] as const,
  group: (id: number) => ['monitor', 'groups', 'one', id] as const,
  searches: ['monitor', 'searches'] as const,
  searchList: ['monitor', 'searches', 'list'] as const,
  search: (id: number) => ['monitor', 'searches', 'one', id] as const,
  matches: ['monitor', 'matches'] as const,
  counts: ['monitor', 'matches', 'counts'] as const,
  filterLists: ['filter-lists'] as const,
  locationConfigurations: ['configurations', 'all'] as const,
};

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
  return useQuery({ queryKey: monitorKeys.filterLists, queryFn: ({ signal }) => fetchFilterLists(signal), enabled });
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
    queryKey: monitorKeys.locationConfigurations,
    queryFn: ({ signal }) => fetchLocationConfigurations(signal),
  });
}
