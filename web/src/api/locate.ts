// Locate: the map search over stored posts (search-side.md sections 3 and 7; the request and
// reply are documented in docs/search-api.md).
import type { SearchPage } from './beacon';
import type { Analytics } from './analytics';
import { request } from './transport';

export type LocateType = 'keyword' | 'author' | 'location' | 'compound';
export type LocateMedia = 'images' | 'videos' | 'both';

/** How high a post's threat score must be: elevated from 25, high from 50 (docs/threat-score.md). */
export type LocatePriority = 'elevated' | 'high';

/** Most recent (the default), most popular (the post's engagement), most followers (its author's). */
export type LocateSort = 'recent' | 'popular' | 'followers';

export interface LocateRequest {
  type: LocateType;
  keywords?: string;
  /** Comma-separated names or handles. */
  author?: string;
  /** WKT polygon. */
  bounds?: string;
  providers?: string[];
  /** Boards or groups the posts must come from, whatever the type. */
  boards?: string[];
  /** Unix milliseconds, published time. */
  from?: number;
  to?: number;
  media?: LocateMedia;
  priority?: LocatePriority;
  sort?: LocateSort;
  size?: number;
  /** Ids of the organization's keyword and author filter lists the results must pass. */
  searchFilters?: number[];
}

export async function locateSearch(body: LocateRequest, signal?: AbortSignal) {
  return (await request<SearchPage>('POST', '/api/v1/locate/search', { body, signal })).data;
}

export async function locateMore(searchId: string, signal?: AbortSignal) {
  return (await request<SearchPage>('POST', '/api/v1/locate/search/load-more', { body: { searchId }, signal })).data;
}

export async function locateAnalytics(body: LocateRequest, signal?: AbortSignal) {
  return (await request<Analytics>('POST', '/api/v1/locate/analytics', { body, signal })).data;
}
