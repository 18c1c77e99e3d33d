// Stories' server state: the inbox grouped by story (each row with its story's summary), and a
// story page's posts loaded page after page.
import { useInfiniteQuery } from '@tanstack/react-query';
import { monitorKeys, storyKeys } from '../api/keys';
import { fetchInboxStories, type InboxStoryPage, type MatchQuery } from '../api/monitor';
import { fetchStory, STORY_POSTS_PER_PAGE, type Story } from '../api/stories';

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
