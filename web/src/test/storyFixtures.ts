import type { Match, Post } from '../api/monitor';
import type { InboxStory, Story } from '../api/stories';
import { testMatch } from './fixtures';

/** A story of a bridge closure reported on Reddit and X, in English and Dutch. */
export function testStory(id: string, overrides: Partial<Story> = {}): Story {
  return {
    id,
    title: 'The Erasmus bridge is closed',
    postCount: 3,
    providers: [
      { name: 'reddit', count: 1 },
      { name: 'twitter', count: 2 },
    ],
    languages: [
      { name: 'en', count: 2 },
      { name: 'nl', count: 1 },
    ],
    firstSeenAt: '2026-11-20T10:00:00Z',
    lastSeenAt: '2026-11-20T13:30:00Z',
    timeline: [
      { hour: '2026-11-20T10:00:00Z', count: 2 },
      { hour: '2026-11-20T13:00:00Z', count: 1 },
    ],
    posts: [testPost(1, id)],
    ...overrides,
  };
}

/** A row of the inbox grouped by story: the story's summary rides along with its match count. */
export function testInboxStory(id: string, matchCount: number, newestMatch: Match): InboxStory {
  const { id: storyID, title, postCount, providers, languages, firstSeenAt, lastSeenAt, timeline } = testStory(id);
  const story = { id: storyID, title, postCount, providers, languages, firstSeenAt, lastSeenAt, timeline };
  return { storyId: id, matchCount, newestMatch, story };
}

/** The post of match n, in story storyId. */
export function testPost(n: number, storyId: string, overrides: Partial<Post> = {}): Post {
  return { ...testMatch(n).post, storyId, ...overrides };
}
