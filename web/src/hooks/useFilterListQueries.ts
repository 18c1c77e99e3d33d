// Server state of the search-filter screens. Keys sit under the builder's ['filter-lists'] so
// one invalidation reloads both.
import { useQuery } from '@tanstack/react-query';
import {
  fetchFilterList,
  fetchFilterListDetails,
  fetchObjectTypeahead,
  fetchPrebuiltFilterLists,
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
