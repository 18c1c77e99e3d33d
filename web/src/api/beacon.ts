// Beacon: keyword search over the stored posts (search-side.md sections 2 and 7; the request and
// reply are documented in docs/search-api.md).
import type { SearchPage } from './contracts.gen';
import { request } from './transport';

export type { SearchPage } from './contracts.gen';

const BEACON = '/beacon/v1';

/** Where a search looks: every category (all) or one of them. */
export type SearchCategory = 'all' | 'social' | 'darkweb' | 'openweb' | 'documents' | 'deep-web';

export type SearchSort = 'published_desc' | 'published_asc' | 'discovered_desc' | 'discovered_asc' | 'relevance';

export interface SearchRequest {
  query: string;
  authors?: string[];
  providers?: string[];
  boards?: string[];
  /** Unix milliseconds, published time. */
  startDate?: number;
  endDate?: number;
  /** Unix milliseconds, the date crawled (discovered); the past two years by default. */
  discoveredStartDate?: number;
  discoveredEndDate?: number;
  sort?: SearchSort;
  size?: number;
}

export async function searchPosts(category: SearchCategory, body: SearchRequest, signal?: AbortSignal) {
  return (await request<SearchPage>('POST', `${BEACON}/${category}`, { body, signal })).data;
}

/** The next results of a search: appended (load-more) or as the next page (next-page). */
export async function morePosts(
  category: SearchCategory,
  searchId: string,
  how: 'load-more' | 'next-page',
  signal?: AbortSignal,
) {
  return (await request<SearchPage>('POST', `${BEACON}/${category}/${how}`, { body: { searchId }, signal })).data;
}

/** A search as the history keeps it; the request holds what the screen that ran it needs. */
export interface HistoryEntry {
  id: number;
  category: string;
  request: SearchRequest & { tab?: string; range?: string };
  /** Unix seconds. */
  createdAt: number;
}

export async function recordSearch(category: string, body: SearchRequest & { tab?: string; range?: string }) {
  return (await request<{ id: number }>('POST', `${BEACON}/search`, { body: { category, request: body } })).data;
}

export async function fetchHistory(signal?: AbortSignal) {
  return (await request<HistoryEntry[]>('GET', `${BEACON}/search`, { signal })).data;
}

/** The caller's flagged posts, most recently flagged first. */
export async function fetchFlagged(signal?: AbortSignal) {
  return (await request<SearchPage>('GET', `${BEACON}/flags`, { signal })).data;
}

export async function flagPosts(postIds: string[]) {
  await request('POST', `${BEACON}/flags`, { body: { postIds } });
}

export async function unflagPost(postId: string) {
  await request('DELETE', `${BEACON}/flags/${encodeURIComponent(postId)}`);
}

export async function clearFlags() {
  await request('DELETE', `${BEACON}/flags`);
}

/** A user's state of one result; a post without marks is unread and not deleted. */
export interface PostMarks {
  read: boolean;
  deleted: boolean;
}

/** How many posts one marks call names at most (the server's bound). */
const MARKS_PER_CALL = 500;

/** The caller's marks of the named posts, by post id; posts without marks are left out. */
export async function fetchMarks(postIds: string[], signal?: AbortSignal) {
  const calls = [];
  for (let i = 0; i < postIds.length; i += MARKS_PER_CALL) {
    const body = { postIds: postIds.slice(i, i + MARKS_PER_CALL) };
    calls.push(request<Record<string, PostMarks>>('POST', `${BEACON}/marks`, { body, signal }));
  }
  return Object.assign({}, ...(await Promise.all(calls)).map((r) => r.data)) as Record<string, PostMarks>;
}

/** Marks posts read, unread or deleted (deleting cannot be undone). */
export async function markPosts(mark: 'read' | 'unread' | 'deleted', postIds: string[]) {
  await request('POST', `${BEACON}/marks/${mark}`, { body: { postIds } });
}
