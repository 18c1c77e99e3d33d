import type { Post, Provider } from '../api/monitor';
import type { HourCount } from '../api/stories';
import { languageName } from './translate/languages';
import { authorOf } from './postAuthor';

const HOUR_MS = 3_600_000;

/**
 * The story's posts an hour, every hour from its first to its last: the server lists only the
 * hours that have posts, and a sparkline drawn through those alone would hide the quiet hours.
 */
export function hourlyCounts(timeline: HourCount[]): number[] {
  const first = timeline[0];
  const last = timeline[timeline.length - 1];
  if (!first || !last) return [];
  const start = Date.parse(first.hour);
  const counts = new Array<number>(Math.round((Date.parse(last.hour) - start) / HOUR_MS) + 1).fill(0);
  for (const { hour, count } of timeline) counts[Math.round((Date.parse(hour) - start) / HOUR_MS)] = count;
  return counts;
}

/** A provider's display name, or its name when the caller's list does not have it. */
export function providerName(providers: Map<string, Provider>) {
  return (name: string) => providers.get(name)?.displayName ?? name;
}

/** A language's name; posts too short to tell are "Unknown". */
export function storyLanguageName(code: string): string {
  return code === '' || code === 'und' ? 'Unknown' : languageName(code);
}

/** A post of a result list with the copies of its story that come after it in the list. */
export interface StoryGroup {
  lead: Post;
  copies: Post[];
}

/**
 * Collapses the posts of one story under the first of them in the list's order, keeping that
 * order; a post without a story (stored before stories) stands alone. The counts are of the
 * results loaded, not of the whole story: the story page has those.
 */
export function collapseStories(posts: Post[]): StoryGroup[] {
  const groups: StoryGroup[] = [];
  const byStory = new Map<string, StoryGroup>();
  for (const post of posts) {
    const group = post.storyId ? byStory.get(post.storyId) : undefined;
    if (group) {
      group.copies.push(post);
      continue;
    }
    const lead = { lead: post, copies: [] };
    groups.push(lead);
    if (post.storyId) byStory.set(post.storyId, lead);
  }
  return groups;
}

/** How many sources (a provider's author or site) the posts come from. */
export function sourceCount(posts: Post[]): number {
  return new Set(posts.map((p) => `${p.provider}\u0000${authorOf(p)}`)).size;
}

/** A place the posts of a story name, with how many of them name it. */
export interface StoryPlace {
  name: string;
  countryCode: string;
  lat: number;
  lon: number;
  count: number;
}

/** The places the posts name (enrichment's mentioned locations), most named first. */
export function storyPlaces(posts: Post[]): StoryPlace[] {
  const byPlace = new Map<string, StoryPlace>();
  for (const post of posts) {
    const seen = new Set<string>();
    for (const place of post.mentioned_locations ?? []) {
      const key = `${place.name}\u0000${place.country_code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const known = byPlace.get(key);
      if (known) known.count++;
      else
        byPlace.set(key, {
          name: place.name,
          countryCode: place.country_code,
          lat: place.point.lat,
          lon: place.point.lon,
          count: 1,
        });
    }
  }
  return [...byPlace.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}
