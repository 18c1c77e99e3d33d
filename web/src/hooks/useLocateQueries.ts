// Locate's server state: a search, page by page, and its analytics.
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { SearchPage } from '../api/beacon';
import { locateKeys } from '../api/keys';
import { locateAnalytics, locateMore, locateSearch } from '../api/locate';
import { type LocateQuery, withLocateDates } from '../lib/locateSearch';

/** A Locate search: the first page, then more as the user asks. Off while query is null. */
export function useLocateSearch(query: LocateQuery | null) {
  return useInfiniteQuery({
    queryKey: locateKeys.search(query ?? { type: 'location' }),
    queryFn: ({ pageParam, signal }) =>
      pageParam === ''
        ? locateSearch(withLocateDates(query ?? { type: 'location' }, Date.now()), signal)
        : locateMore(pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last: SearchPage) => (last.searchId === '' ? undefined : last.searchId),
    enabled: query !== null,
    // A search is a snapshot the user asked for: it reloads when asked, not on focus.
    staleTime: Infinity,
    retry: false,
  });
}

/** The word cloud and daily graph of a Locate search, while enabled. */
export function useLocateAnalytics(query: LocateQuery | null, enabled: boolean) {
  return useQuery({
    queryKey: locateKeys.analytics(query ?? { type: 'location' }),
    queryFn: ({ signal }) => locateAnalytics(withLocateDates(query ?? { type: 'location' }, Date.now()), signal),
    enabled: enabled && query !== null,
    staleTime: Infinity,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
