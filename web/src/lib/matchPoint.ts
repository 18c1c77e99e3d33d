import type { Match, Post } from '../api/monitor';

export interface MatchPoint {
  lat: number;
  lon: number;
  /** A geotag (exact) rather than a place named in the text. */
  exact: boolean;
  name: string;
}

/** Where a match goes on the map: its post's point. */
export function matchPoint({ post }: Match): MatchPoint | null {
  return postPoint(post);
}

/** Where a post goes on the map: its geotag, else the first place its text mentions. */
export function postPoint(post: Post): MatchPoint | null {
  if (post.location) {
    return { lat: post.location.lat, lon: post.location.lon, exact: true, name: post.place_name || 'Geotagged' };
  }
  const mentioned = post.mentioned_locations?.[0];
  if (mentioned) return { lat: mentioned.point.lat, lon: mentioned.point.lon, exact: false, name: mentioned.name };
  return null;
}
