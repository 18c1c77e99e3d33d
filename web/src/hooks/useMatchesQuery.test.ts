import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { monitorKeys } from '../api/keys';
import type { MatchPage, MatchQuery } from '../api/monitor';
import { readInboxQuery } from '../lib/inboxQuery';
import { testMatch } from '../test/fixtures';
import { applyLiveMatch, insertLiveMatch, patchLoadedMatches, removeLoadedMatches } from './useMatchesQuery';

function loaded(queryClient: QueryClient, query: MatchQuery, pages: MatchPage[]) {
  queryClient.setQueryData(monitorKeys.matchList(query), { pages, pageParams: pages.map((p) => p.page) });
}

function idsOf(queryClient: QueryClient, query: MatchQuery): number[] {
  const data = queryClient.getQueryData<{ pages: MatchPage[] }>(monitorKeys.matchList(query));
  return data?.pages.flatMap((p) => p.matches.map((m) => m.matchMeta.matchId)) ?? [];
}

const newest = readInboxQuery(new URLSearchParams());
const oldest = readInboxQuery(new URLSearchParams('sort=published_asc'));
const flagged = readInboxQuery(new URLSearchParams('filters=flagged'));
const text = readInboxQuery(new URLSearchParams('searchText=bridge'));

describe('keeping loaded matches current', () => {
  it('puts a live match at the top of newest-first lists, and at the end of fully loaded oldest-first lists', () => {
    const queryClient = new QueryClient();
    loaded(queryClient, newest, [{ matches: [testMatch(1)], page: 1, lastPage: 1, total: 1, asOf: 0 }]);
    loaded(queryClient, oldest, [{ matches: [testMatch(1)], page: 1, lastPage: 1, total: 1, asOf: 0 }]);
    loaded(queryClient, flagged, [{ matches: [], page: 1, lastPage: 1, total: 0, asOf: 0 }]);
    insertLiveMatch(queryClient, testMatch(2));
    insertLiveMatch(queryClient, testMatch(2)); // delivered twice, shown once
    expect(idsOf(queryClient, newest)).toEqual([2, 1]);
    expect(idsOf(queryClient, oldest)).toEqual([1, 2]);
    expect(idsOf(queryClient, flagged)).toEqual([]);
  });

  it('reloads a text-searched list instead of guessing', () => {
    const queryClient = new QueryClient();
    loaded(queryClient, text, [{ matches: [testMatch(1)], page: 1, lastPage: 1, total: 1, asOf: 0 }]);
    insertLiveMatch(queryClient, testMatch(2));
    expect(queryClient.getQueryState([...monitorKeys.matches, 'list', text])?.isInvalidated).toBe(true);
  });

  it('loads a list again when its load in flight may predate the match', async () => {
    const queryClient = new QueryClient();
    const key = monitorKeys.matchList(newest);
    let answer: ((page: MatchPage) => void) | undefined;
    const pending = queryClient.fetchQuery({
      queryKey: key,
      queryFn: () => new Promise<MatchPage>((resolve) => (answer = resolve)),
    });
    insertLiveMatch(queryClient, testMatch(2));
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true);
    answer?.({ matches: [], page: 1, lastPage: 1, total: 0, asOf: 0 });
    await pending;
  });

  it('shows the match of an event, and loads the lists again when it says more arrived', () => {
    const queryClient = new QueryClient();
    const key = monitorKeys.matchList(newest);
    loaded(queryClient, newest, [{ matches: [testMatch(1)], page: 1, lastPage: 1, total: 1, asOf: 0 }]);
    applyLiveMatch(queryClient, { match: testMatch(2) });
    applyLiveMatch(queryClient, { match: testMatch(3), more: 0 });
    expect(idsOf(queryClient, newest)).toEqual([3, 2, 1]);
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(false);
    applyLiveMatch(queryClient, { match: testMatch(4), more: 7 });
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true);
  });

  it('changes and removes loaded matches in place', () => {
    const queryClient = new QueryClient();
    loaded(queryClient, newest, [{ matches: [testMatch(1), testMatch(2)], page: 1, lastPage: 1, total: 2, asOf: 0 }]);
    patchLoadedMatches(queryClient, [2], (m) => ({ ...m, matchMeta: { ...m.matchMeta, isFlagged: true } }));
    const data = queryClient.getQueryData<{ pages: MatchPage[] }>(monitorKeys.matchList(newest));
    expect(data?.pages[0]?.matches.map((m) => m.matchMeta.isFlagged)).toEqual([false, true]);
    removeLoadedMatches(queryClient, [1]);
    expect(idsOf(queryClient, newest)).toEqual([2]);
  });
});
