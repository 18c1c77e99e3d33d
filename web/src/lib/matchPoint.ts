import type { Match, Post } from '../api/monitor';

export interface MatchPoint {
  lat: number;
  lon: number;
  /** A geotag (exact) rather than a place named in the text. */
  exact: boolean;
  name: string;
}

/** Where a match goes on the map: its post's point (mentioned places only when the user shows them). */
export function matchPoint({ post }: Match, mentioned = true): MatchPoint | null {
  return postPoint(post, mentioned);
}

/** Where a post goes on the map: its geotag, else (unless turned off) the first place its text mentions. */
export function postPoint(post: Post, withMentioned = true): MatchPoint | null {
  if (post.location) {
    return { lat: post.location.lat, lon: post.location.lon, exact: true, name: post.place_name || 'Geotagged' };
  }
  const mentioned = withMentioned ? post.mentioned_locations?.[0] : undefined;
  if (mentioned) return { lat: mentioned.point.lat, lon: mentioned.point.lon, exact: false, name: mentioned.name };
  return null;
}
