import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { monitorKeys } from '../api/keys';
import type { InboxStoryPage } from '../api/monitor';
import type { StoryUpdated } from '../api/stories';
import { readInboxQuery } from '../lib/inboxQuery';
import { testMatch } from '../test/fixtures';
import { testInboxStory } from '../test/storyFixtures';
import { applyLiveStory } from './useStoryQueries';

const query = readInboxQuery(new URLSearchParams());

function loaded(queryClient: QueryClient, pages: InboxStoryPage[]) {
  queryClient.setQueryData(monitorKeys.storyList(query), { pages, pageParams: pages.map((p) => p.page) });
}

function rows(queryClient: QueryClient) {
  const data = queryClient.getQueryData<{ pages: InboxStoryPage[] }>(monitorKeys.storyList(query));
  return data?.pages.flatMap((p) => p.stories) ?? [];
}

// testStory: 3 posts, the last at 13:30, in hours 10:00 (2) and 13:00 (1).
const grown = (postCount: number, lastSeenAt: string): StoryUpdated => ({
  id: 'post-1',
  title: 'The Erasmus bridge is closed for the night',
  postCount,
  providers: [{ name: 'twitter', count: postCount }],
  languages: [{ name: 'en', count: postCount }],
  lastSeenAt,
});

describe('a live story.updated', () => {
  it('changes a shown story in place, once however often it comes, and grows its timeline', () => {
    const queryClient = new QueryClient();
    loaded(queryClient, [
      {
        stories: [testInboxStory('post-9', 1, testMatch(9)), testInboxStory('post-1', 2, testMatch(1))],
        page: 1,
        lastPage: 1,
        total: 2,
        asOf: 0,
      },
    ]);
    applyLiveStory(queryClient, grown(5, '2026-11-20T13:50:00Z'));
    applyLiveStory(queryClient, grown(6, '2026-11-20T14:05:00Z'));
    applyLiveStory(queryClient, grown(6, '2026-11-20T14:05:00Z')); // delivered twice
    const shown = rows(queryClient);
    expect(shown.map((r) => r.storyId)).toEqual(['post-9', 'post-1']);
    const story = shown[1]!.story;
    expect(story).toMatchObject({
      title: 'The Erasmus bridge is closed for the night',
      postCount: 6,
      lastSeenAt: '2026-11-20T14:05:00Z',
    });
    expect(story.timeline).toEqual([
      { hour: '2026-11-20T10:00:00Z', count: 2 },
      { hour: '2026-11-20T13:00:00Z', count: 3 },
      { hour: '2026-11-20T14:00:00.000Z', count: 1 },
    ]);
    expect(queryClient.getQueryState(monitorKeys.storyList(query))?.isInvalidated).toBe(false);
  });

  it('loads the lists again for a story not shown yet', () => {
    const queryClient = new QueryClient();
    loaded(queryClient, [
      { stories: [testInboxStory('post-9', 1, testMatch(9))], page: 1, lastPage: 1, total: 1, asOf: 0 },
    ]);
    applyLiveStory(queryClient, grown(1, '2026-11-20T14:05:00Z'));
    expect(rows(queryClient).map((r) => r.storyId)).toEqual(['post-9']);
    expect(queryClient.getQueryState(monitorKeys.storyList(query))?.isInvalidated).toBe(true);
  });
});
