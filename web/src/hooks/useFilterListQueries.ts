// Server state of the search-filter screens. Keys sit under the builder's ['filter-lists'] so
// one invalidation reloads both.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addFilterEntries,
  createFilterList,
  deleteFilterList,
  fetchFilterList,
  fetchFilterListDetails,
  fetchObjectTypeahead,
  fetchPrebuiltFilterLists,
  type FilterList,
  type FilterListChange,
  type FilterListRequest,
  removeFilterEntries,
  trackObjectUse,
  updateFilterList,
  uploadFilterCsv,
} from '../api/filters';
import { filterListKeys } from '../api/keys';

export function useFilterListDetailsQuery() {
  return useQuery({ queryKey: filterListKeys.details, queryFn: ({ signal }) => fetchFilterListDetails(signal) });
}

export function useFilterListQuery(id: number) {
  return useQuery({ queryKey: filterListKeys.one(id), queryFn: ({ signal }) => fetchFilterList(id, signal) });
}

export function usePrebuiltFilterListsQuery() {
  return useQuery({
    queryKey: filterListKeys.prebuilt,
    queryFn: ({ signal }) => fetchPrebuiltFilterLists(signal),
    // They ship in the binary.
    staleTime: Infinity,
  });
}

export function useObjectTypeaheadQuery(q: string) {
  return useQuery({
    queryKey: filterListKeys.objects(q),
    queryFn: ({ signal }) => fetchObjectTypeahead(q, signal),
    enabled: q !== '',
  });
}

/** Counts each use of object keywords, so the organization's favourites rank first; best effort. */
function trackObjects(objects: string[]) {
  for (const o of objects) void trackObjectUse(o).catch(() => undefined);
}

/** Creates a list; resolves once the lists around it have reloaded. */
export function useCreateFilterList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (list: FilterListRequest) => createFilterList(list),
    onSuccess: async (_data, list) => {
      await queryClient.invalidateQueries({ queryKey: filterListKeys.all });
      trackObjects(list.objects ?? []);
    },
  });
}

/** Shows a changed list at once and reloads the lists around it. */
function useApplyFilterList() {
  const queryClient = useQueryClient();
  return (next: FilterList) => {
    queryClient.setQueryData(filterListKeys.one(next.id), next);
    void queryClient.invalidateQueries({ queryKey: filterListKeys.all, refetchType: 'none' });
    void queryClient.invalidateQueries({ queryKey: filterListKeys.details });
  };
}

export function useUpdateFilterList(list: FilterList) {
  const apply = useApplyFilterList();
  return useMutation({
    mutationFn: (body: { name?: string; inclusion?: boolean }) => updateFilterList(list.id, body),
    onSuccess: apply,
  });
}

export type FilterEntriesChange = { add: string[] } | { remove: number[] } | { csv: string };

/** Adds, removes or uploads a list's entries; an addition may answer with what it left out. */
export function useChangeFilterEntries(list: FilterList) {
  const apply = useApplyFilterList();
  return useMutation({
    mutationFn: (change: FilterEntriesChange): Promise<FilterListChange | FilterList> =>
      'add' in change
        ? addFilterEntries(list.id, list.type, change.add)
        : 'remove' in change
          ? removeFilterEntries(list.id, list.type, change.remove)
          : uploadFilterCsv(list.id, change.csv),
    onSuccess: (reply, change) => {
      apply('stripped' in reply ? reply.data : reply);
      if ('add' in change && list.type === 'object_detection') trackObjects(change.add);
    },
  });
}

/** Deletes a list; resolves once the lists have reloaded without it. */
export function useDeleteFilterList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteFilterList(id),
    onSuccess: async (_data, id) => {
      queryClient.removeQueries({ queryKey: filterListKeys.one(id) });
      await queryClient.invalidateQueries({ queryKey: filterListKeys.all });
    },
  });
}
