// Beacon's server state: a tab's search, page by page; the user's flags; the search history.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { beaconAnalytics } from '../api/analytics';
import { beaconKeys } from '../api/keys';
import type { Post } from '../api/monitor';
import { useConfirm } from './useConfirm';
import { searchActionError } from '../lib/searchError';
import { useSnackbar } from './useSnackbar';
import {
  clearFlags,
  fetchFlagged,
  fetchHistory,
  fetchMarks,
  flagPosts,
  markPosts,
  morePosts,
  recordSearch,
  type SearchCategory,
  type SearchPage,
  type SearchRequest,
  searchPosts,
  unflagPost,
} from '../api/beacon';
import { type BeaconRequest, withDates } from '../lib/beaconSearch';

/** A tab's search: the first page, then the next ones as the user asks. */
export function useBeaconSearch(category: SearchCategory | undefined, request: BeaconRequest | null) {
  return useInfiniteQuery({
    queryKey: beaconKeys.search(category ?? 'all', request ?? { query: '' }),
    queryFn: ({ pageParam, signal }) =>
      pageParam === ''
        ? searchPosts(category ?? 'all', withDates(request ?? { query: '' }, Date.now()), signal)
        : morePosts(category ?? 'all', pageParam, 'load-more', signal),
    initialPageParam: '',
    getNextPageParam: (last: SearchPage) => (last.searchId === '' ? undefined : last.searchId),
    enabled: category !== undefined && request !== null,
    // A search is a snapshot the user asked for: it reloads when asked, not on focus.
    staleTime: Infinity,
    retry: false,
  });
}

export function useFlaggedQuery() {
  return useQuery({ queryKey: beaconKeys.flags, queryFn: ({ signal }) => fetchFlagged(signal) });
}

/** Flags or unflags a post, and clears all flags; the Flagged tab reloads after each. */
export function useFlagActions() {
  const client = useQueryClient();
  const settle = () => client.invalidateQueries({ queryKey: beaconKeys.flags });
  const flag = useMutation({
    mutationFn: ({ postId, flagged }: { postId: string; flagged: boolean }) =>
      flagged ? flagPosts([postId]) : unflagPost(postId),
    onSettled: settle,
  });
  const clear = useMutation({ mutationFn: clearFlags, onSettled: settle });
  return { flag, clear };
}

/** The user's flags: which posts are flagged, and flagging one with a word of what happened. */
export function usePostFlags() {
  const flagged = useFlaggedQuery();
  const { flag } = useFlagActions();
  const snackbar = useSnackbar();
  const ids = useMemo(() => new Set((flagged.data?.documents ?? []).map((p) => p.id)), [flagged.data]);
  const toggle = (post: Post, on: boolean) =>
    flag.mutate(
      { postId: post.id, flagged: on },
      {
        onSuccess: () => snackbar.show({ color: 'success', text: on ? 'Flagged for export' : 'Flag removed' }),
        onError: (error) => snackbar.show({ color: 'error', text: searchActionError(error) }),
      },
    );
  return { ids, toggle };
}

/** What the user did to the shown results: which are read and which deleted, and marking one. */
export function usePostMarks(posts: Post[]) {
  const client = useQueryClient();
  const snackbar = useSnackbar();
  const confirm = useConfirm();
  const postIds = useMemo(() => posts.map((p) => p.id), [posts]);
  const marks = useQuery({
    queryKey: beaconKeys.marksOf(postIds),
    queryFn: ({ signal }) => fetchMarks(postIds, signal),
    enabled: postIds.length > 0,
    placeholderData: keepPreviousData,
  });
  const mark = useMutation({
    mutationFn: ({ post, how }: { post: Post; how: 'read' | 'unread' | 'deleted' }) => markPosts(how, [post.id]),
    onSuccess: (_, { how }) => {
      if (how === 'deleted') snackbar.show({ color: 'success', text: 'Result deleted' });
    },
    onError: (error) => snackbar.show({ color: 'error', text: searchActionError(error) }),
    onSettled: () => client.invalidateQueries({ queryKey: beaconKeys.marks }),
  });
  const { read, deleted } = useMemo(() => {
    const entries = Object.entries(marks.data ?? {});
    return {
      read: new Set(entries.filter(([, m]) => m.read).map(([id]) => id)),
      deleted: new Set(entries.filter(([, m]) => m.deleted).map(([id]) => id)),
    };
  }, [marks.data]);
  return {
    read,
    deleted,
    setRead: (post: Post, on: boolean) => mark.mutate({ post, how: on ? 'read' : 'unread' }),
    // Deleting cannot be undone (search-side.md section 4), so it asks first.
    remove: (post: Post) =>
      confirm({
        title: 'Delete this result?',
        text: 'It will no longer show in your results. This cannot be undone.',
        icon: 'warning',
        acceptLabel: 'Delete',
        onAccept: () => mark.mutate({ post, how: 'deleted' }),
      }),
  };
}

/** The word cloud and daily graph of a Beacon search, while enabled. */
export function useBeaconAnalytics(
  category: SearchCategory | undefined,
  request: BeaconRequest | null,
  enabled: boolean,
) {
  return useQuery({
    queryKey: beaconKeys.analytics(category ?? 'all', request ?? { query: '' }),
    queryFn: ({ signal }) =>
      beaconAnalytics(category ?? 'all', withDates(request ?? { query: '' }, Date.now()), signal),
    enabled: enabled && category !== undefined && request !== null,
    staleTime: Infinity,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

/** How many of an author's most recent posts their profile shows. */
export const AUTHOR_POSTS = 200;

/** An author's most recent posts across every category, up to AUTHOR_POSTS. */
export function useAuthorPosts(name: string) {
  return useQuery({
    queryKey: beaconKeys.author(name),
    queryFn: async ({ signal }) => {
      let page = await searchPosts('all', { query: '', authors: [name], size: 100 }, signal);
      const first = page;
      const posts = [...page.documents];
      while (page.searchId !== '' && posts.length < AUTHOR_POSTS) {
        page = await morePosts('all', page.searchId, 'load-more', signal);
        posts.push(...page.documents);
      }
      return {
        posts: posts.slice(0, AUTHOR_POSTS),
        total: first.totalCount,
        estimate: first.totalCountIsEstimate ?? false,
      };
    },
    staleTime: 60_000,
    retry: false,
  });
}

export function useHistoryQuery() {
  return useQuery({ queryKey: beaconKeys.history, queryFn: ({ signal }) => fetchHistory(signal) });
}

/** Records a search in the user's history; a failure there never stops the search. */
export function useRecordSearch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      category,
      request,
    }: {
      category: string;
      request: SearchRequest & { tab?: string; range?: string };
    }) => recordSearch(category, request),
    onSuccess: () => client.invalidateQueries({ queryKey: beaconKeys.history }),
  });
}
