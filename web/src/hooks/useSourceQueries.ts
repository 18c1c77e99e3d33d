import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sourceKeys } from '../api/keys';
import {
  createSource,
  deleteSource,
  fetchSources,
  fetchSourcesHealth,
  fetchSourceTypes,
  testSource,
  updateSource,
  type SourceInput,
} from '../api/sources';

/** The tenant's sources with their health, refreshed every ten seconds. */
export function useSourcesQuery() {
  return useQuery({
    queryKey: sourceKeys.list,
    queryFn: ({ signal }) => fetchSources(signal),
    refetchInterval: 10_000,
  });
}

export function useSourceTypesQuery() {
  return useQuery({
    queryKey: sourceKeys.types,
    queryFn: ({ signal }) => fetchSourceTypes(signal),
    staleTime: Infinity,
  });
}

/** How many sources fail, for the top bar's warning; only asked for tenant admins. */
export function useSourcesHealthQuery(enabled: boolean) {
  return useQuery({
    queryKey: sourceKeys.health,
    enabled,
    queryFn: ({ signal }) => fetchSourcesHealth(signal),
    refetchInterval: 60_000,
  });
}

export function useSaveSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: SourceInput }) =>
      id === undefined ? createSource(input) : updateSource(id, input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: sourceKeys.all }),
  });
}

export function useDeleteSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteSource(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: sourceKeys.all }),
  });
}

export function useTestSource() {
  return useMutation({ mutationFn: ({ id, input }: { id?: number; input: SourceInput }) => testSource(input, id) });
}
