import type { Post } from '../api/monitor';
import type { Story } from '../api/stories';
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

/** The post of match n, in story storyId. */
export function testPost(n: number, storyId: string, overrides: Partial<Post> = {}): Post {
  return { ...testMatch(n).post, storyId, ...overrides };
}
