// Stories (docs/stories.md): the posts that report one event, as the caller may see them.
import type { Story } from './contracts.gen';
import { request } from './transport';

export type { Count, HourCount, InboxStory, Story, StorySummary, StoryUpdated } from './contracts.gen';

/** Posts a story page loads at a time; the server allows 1 to 200. */
export const STORY_POSTS_PER_PAGE = 50;

/** The story with its posts from offset on (oldest first); a story the caller may not see is a 404. */
export async function fetchStory(id: string, offset: number, limit: number, signal?: AbortSignal): Promise<Story> {
  const params = new URLSearchParams({ offset: String(offset), limit: String(limit) });
  const path = `/api/v1/stories/${encodeURIComponent(id)}?${params.toString()}`;
  return (await request<Story>('GET', path, { signal })).data;
}
