// The inbox's server state: pages of matches for a query, counts, and the cache edits that keep
// them current after an action or a live event without reloading what is already shown.
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { monitorKeys } from '../api/keys';
import {
  fetchMatchCounts,
  fetchMatchCountsBySearch,
  fetchMatches,
  fetchMatchesWaiting,
  type Match,
  type MatchCounts,
  type MatchCreated,
  type MatchPage,
  type MatchQuery,
} from '../api/monitor';
import { matchFitsQuery } from '../lib/inboxQuery';

/** Matches fetched per page; the server allows up to 200. */
export const MATCHES_PER_PAGE = 100;

export function useMatchesQuery(query: MatchQuery) {
  return useInfiniteQuery({
    queryKey: monitorKeys.matchList(query),
    queryFn: ({ pageParam, signal }) => fetchMatches(query, pageParam, MATCHES_PER_PAGE, signal),
    initialPageParam: 1,
    getNextPageParam: (last: MatchPage) => (last.page < last.lastPage ? last.page + 1 : undefined),
  });
}

export function useMatchCountsQuery() {
  return useQuery({ queryKey: monitorKeys.counts, queryFn: ({ signal }) => fetchMatchCounts(signal) });
}

/**
 * How many matches of query arrived after since, the loaded list's asOf: those waiting behind
 * "Show them", so that the list's count and this add up to the header's and the sidebar's.
 * Asked again whenever the counts change (applyLiveCounts).
 */
export function useWaitingMatchesQuery(query: MatchQuery, since: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: monitorKeys.waiting(query, since ?? 0),
    queryFn: ({ signal }) => fetchMatchesWaiting(query, since ?? 0, signal),
    enabled: enabled && since !== undefined,
  });
}

export function useMatchCountsBySearchQuery(ids: number[]) {
  return useQuery({
    queryKey: monitorKeys.countsOf(ids),
    queryFn: ({ signal }) => fetchMatchCountsBySearch(ids, signal),
    enabled: ids.length > 0,
  });
}

type MatchPages = InfiniteData<MatchPage, number>;

/** Applies change to the loaded copies of the given matches, as the server just did. */
export function patchLoadedMatches(
  queryClient: QueryClient,
  matchIds: number[],
  change: (match: Match) => Match,
): void {
  const ids = new Set(matchIds);
  queryClient.setQueriesData<MatchPages>(
    { queryKey: monitorKeys.matchLists },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          matches: page.matches.map((m) => (ids.has(m.matchMeta.matchId) ? change(m) : m)),
        })),
      },
  );
}

/** Drops deleted matches from every loaded list. */
export function removeLoadedMatches(queryClient: QueryClient, matchIds: number[]): void {
  const ids = new Set(matchIds);
  queryClient.setQueriesData<MatchPages>({ queryKey: monitorKeys.matchLists }, (data) => {
    if (!data) return data;
    const pages = data.pages.map((page) => {
      const matches = page.matches.filter((m) => !ids.has(m.matchMeta.matchId));
      return { ...page, matches, total: page.total - (page.matches.length - matches.length) };
    });
    return { ...data, pages };
  });
}

/**
 * Shows a match that just arrived in every list it belongs to: at the top of lists sorted newest
 * first, at the end of lists sorted oldest first once their last page is loaded. A list still
 * loading may have been answered before the match was stored, and a text search is beyond the
 * browser's judgement: those lists are loaded again instead.
 */
export function insertLiveMatch(queryClient: QueryClient, match: Match): void {
  for (const list of queryClient.getQueryCache().findAll({ queryKey: monitorKeys.matchLists })) {
    const query = list.queryKey[3] as MatchQuery;
    const fit = matchFitsQuery(match, query);
    if (fit === 'no') continue;
    const data = list.state.data as MatchPages | undefined;
    if (fit === 'unknown' || data === undefined || list.state.fetchStatus === 'fetching') {
      // Refetching cancels the load in flight, so the answer includes the match.
      void queryClient.invalidateQueries({ queryKey: list.queryKey, exact: true });
      continue;
    }
    if (data.pages.some((page) => page.matches.some((m) => m.matchMeta.matchId === match.matchMeta.matchId))) continue;
    const newestFirst = query.sort.endsWith('_desc');
    const lastPage = data.pages[data.pages.length - 1];
    const allLoaded = lastPage !== undefined && lastPage.page >= lastPage.lastPage;
    const pages = data.pages.map((page, index) => {
      const total = page.total + 1;
      if (newestFirst && index === 0) return { ...page, total, matches: [match, ...page.matches] };
      if (!newestFirst && allLoaded && index === data.pages.length - 1) {
        return { ...page, total, matches: [...page.matches, match] };
      }
      return { ...page, total };
    });
    queryClient.setQueryData<MatchPages>(list.queryKey, { ...data, pages });
  }
}

/** Shows a live event's match; when the event says more arrived than were sent, the lists load again. */
export function applyLiveMatch(queryClient: QueryClient, event: MatchCreated): void {
  insertLiveMatch(queryClient, event.match);
  if ((event.more ?? 0) > 0) void queryClient.invalidateQueries({ queryKey: monitorKeys.matchLists });
}

/**
 * Takes the counts a live event carries; what else counts matches (per-search counts, the
 * dashboards, the totals beside loaded lists) is fetched again, so no figure on screen stays
 * behind the sidebar's. A fetch already running is kept rather than restarted: events can come
 * faster than a dashboard loads.
 */
export function applyLiveCounts(queryClient: QueryClient, counts: MatchCounts): void {
  queryClient.setQueryData<MatchCounts>(monitorKeys.counts, {
    totalCount: counts.totalCount,
    unreadCount: counts.unreadCount,
    deletedCount: counts.deletedCount,
    flaggedCount: counts.flaggedCount,
  });
  for (const queryKey of [monitorKeys.countsBySearch, monitorKeys.dashboards, monitorKeys.waitingCounts]) {
    void queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false });
  }
}
