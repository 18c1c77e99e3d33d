// An author's profile from their most recent posts: where they post and when.
import type { Post } from '../api/monitor';

/** The author's name as searches match it: the handle when there is one, else the name. */
export function authorQuery(post: Post): string {
  return post.author_screen_name || post.author_name || '';
}

/** The profile page of the post's author; null when the post names none. */
export function authorPath(post: Post): string | null {
  const name = authorQuery(post);
  if (!name) return null;
  return `/beacon/author?${new URLSearchParams({ name }).toString()}`;
}

/** Posts per data source, most first. */
export function postsByProvider(posts: Post[]): { provider: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const p of posts) counts.set(p.provider, (counts.get(p.provider) ?? 0) + 1);
  return [...counts]
    .map(([provider, count]) => ({ provider, count }))
    .sort((a, b) => b.count - a.count || a.provider.localeCompare(b.provider));
}

/** Posts per hour of the day (UTC), 24 counts from 00:00. */
export function postsByHour(posts: Post[]): number[] {
  const hours = Array.from({ length: 24 }, () => 0);
  for (const p of posts) {
    const hour = new Date(p.published_at).getUTCHours();
    if (Number.isInteger(hour)) hours[hour] = (hours[hour] ?? 0) + 1;
  }
  return hours;
}
