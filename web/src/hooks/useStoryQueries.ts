// Stories' server state: the inbox grouped by story (each row with its story's summary), a
// story's matches in the inbox and the actions on all of them, and a story page's posts loaded
// page after page.
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { monitorKeys, storyKeys } from '../api/keys';
import {
  fetchInboxStories,
  fetchMatches,
  type InboxStoryPage,
  type MatchPage,
  type MatchQuery,
  updateAllMatches,
} from '../api/monitor';
import { fetchStory, STORY_POSTS_PER_PAGE, type Story, type StorySummary, type StoryUpdated } from '../api/stories';
import type { MatchAction } from './useMatchActions';

/** Stories per page of the inbox's Stories view. */
export const STORIES_PER_PAGE = 20;

export function useInboxStoriesQuery(query: MatchQuery) {
  return useInfiniteQuery({
    queryKey: monitorKeys.storyList(query),
    queryFn: ({ pageParam, signal }) => fetchInboxStories(query, pageParam, STORIES_PER_PAGE, signal),
    initialPageParam: 1,
    getNextPageParam: (last: InboxStoryPage) => (last.page < last.lastPage ? last.page + 1 : undefined),
  });
}

/** Matches a story card shows at a time when expanded. */
export const STORY_MATCHES_PER_PAGE = 10;

/** The inbox's matches in one story, under the inbox's filters; loaded once the card is expanded. */
export function useStoryMatchesQuery(query: MatchQuery, storyId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: monitorKeys.storyMatches(query, storyId),
    queryFn: ({ pageParam, signal }) => fetchMatches({ ...query, storyId }, pageParam, STORY_MATCHES_PER_PAGE, signal),
    initialPageParam: 1,
    getNextPageParam: (last: MatchPage) => (last.page < last.lastPage ? last.page + 1 : undefined),
    enabled,
  });
}

/**
 * Flags or marks read every match of the inbox in one story that the filters select, up to upTo
 * (when the card's list was read): matches that arrived since are left alone. Every list of
 * matches, the stories and the counts load again after.
 */
export function useStoryAction(query: MatchQuery, storyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, upTo }: { action: MatchAction; upTo?: number }) =>
      updateAllMatches(action.flag, { ...query, storyId }, action.value, upTo),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: monitorKeys.matches }),
  });
}

export function useStoryQuery(id: string) {
  return useInfiniteQuery({
    queryKey: storyKeys.posts(id),
    queryFn: ({ pageParam, signal }) => fetchStory(id, pageParam, STORY_POSTS_PER_PAGE, signal),
    initialPageParam: 0,
    getNextPageParam: (last: Story, pages: Story[]) => {
      const loaded = pages.reduce((sum, page) => sum + page.posts.length, 0);
      return last.posts.length > 0 && loaded < last.postCount ? loaded : undefined;
    },
  });
}

/**
 * Takes a live story.updated into the Stories view: a story already shown changes in place (its
 * title, counts, sources, languages, last post, and its newest hour of the timeline grown by the
 * posts that joined), so a story never shows twice; a story not shown yet loads the lists again.
 */
export function applyLiveStory(queryClient: QueryClient, event: StoryUpdated): void {
  let shown = false;
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<InboxStoryPage>>({
    queryKey: monitorKeys.storyLists,
  })) {
    if (!data) continue;
    const pages = data.pages.map((page) => ({
      ...page,
      stories: page.stories.map((row) => {
        if (row.storyId !== event.id) return row;
        shown = true;
        return { ...row, story: grown(row.story, event) };
      }),
    }));
    queryClient.setQueryData(key, { ...data, pages });
  }
  if (!shown) void queryClient.invalidateQueries({ queryKey: monitorKeys.storyLists });
}

/** The summary after the event: the posts that joined are counted in the hour of the last one. */
function grown(story: StorySummary, event: StoryUpdated): StorySummary {
  const added = event.postCount - story.postCount;
  let timeline = story.timeline;
  if (added > 0) {
    const hour = new Date(event.lastSeenAt);
    hour.setUTCMinutes(0, 0, 0);
    const last = timeline[timeline.length - 1];
    timeline =
      last && new Date(last.hour).getTime() === hour.getTime()
        ? [...timeline.slice(0, -1), { ...last, count: last.count + added }]
        : [...timeline, { hour: hour.toISOString(), count: added }];
  }
  return {
    ...story,
    title: event.title,
    postCount: event.postCount,
    providers: event.providers,
    languages: event.languages,
    lastSeenAt: event.lastSeenAt,
    timeline,
  };
}
