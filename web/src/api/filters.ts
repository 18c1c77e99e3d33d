// Filter lists, the prebuilt lists and the object-detection typeahead (docs/decisions.md,
// "Filter lists"), for the search-filter screens.
import { request } from './transport';

export interface FilterListSummary {
  id: number;
  name: string;
  type: 'keyword' | 'author' | 'object_detection' | 'all';
  inclusion?: boolean;
  userPermissionLevel: 'owner' | 'edit' | 'view';
}

export interface FilterListRequest {
  name: string;
  type: 'keyword' | 'author' | 'object_detection';
  inclusion?: boolean;
  keywords?: string[];
  authors?: string[];
  objects?: string[];
}

export async function fetchFilterLists(signal?: AbortSignal): Promise<FilterListSummary[]> {
  return (await request<FilterListSummary[]>('GET', '/api/v1/filter-lists/', { signal })).data;
}

export type FilterListType = 'keyword' | 'author' | 'object_detection';
export type FilterKind = 'keyword_inclusion' | 'keyword_exclusion' | 'author_exclusion' | 'object_detection';
export type PermissionLevel = 'owner' | 'edit' | 'view';

export interface FilterEntry {
  id: number;
  value: string;
}

export interface FilterList {
  id: number;
  name: string;
  type: FilterListType;
  inclusion: boolean;
  kind: FilterKind;
  keywords: FilterEntry[];
  authors: FilterEntry[];
  objects: FilterEntry[];
  owner: { id: number; email: string; username: string };
  userPermissionLevel: PermissionLevel;
  /** The saved searches using the list that the caller can see. */
  searches: { id: number; name: string }[];
  createdAt: number;
  updatedAt: number;
}

/** What creating a list, adding entries or uploading replies: the list and what was left out. */
export interface FilterListChange {
  data: FilterList;
  /** Says which entries were removed, when some were. */
  message?: string;
  stripped: { duplicates: number; tooShort: number; tooLong: number; unsearchable: number };
}

export interface PrebuiltFilterList {
  id: string;
  name: string;
  description: string;
  type: FilterListType;
  inclusion: boolean;
  kind: FilterKind;
  keywords: string[];
  authors: string[];
  objects: string[];
}

export interface ObjectUse {
  keyword: string;
  uses: number;
}

const LISTS = '/api/v1/filter-lists';

/** The entries of a list, whatever its type. */
export function entriesOf(list: Pick<FilterList, 'type' | 'keywords' | 'authors' | 'objects'>): FilterEntry[] {
  if (list.type === 'author') return list.authors;
  if (list.type === 'object_detection') return list.objects;
  return list.keywords;
}

/** The last path segment of the entry calls for a list type. */
const entrySegment: Record<FilterListType, string> = {
  keyword: 'keyword',
  author: 'author',
  object_detection: 'object-detection',
};

export async function fetchFilterListDetails(signal?: AbortSignal): Promise<FilterList[]> {
  return (await request<FilterList[]>('GET', `${LISTS}/`, { signal })).data;
}

export async function fetchFilterList(id: number, signal?: AbortSignal): Promise<FilterList> {
  return (await request<FilterList>('GET', `${LISTS}/${id}`, { signal })).data;
}

/** Creates a list; the reply says which entries were left out. */
export async function createFilterList(body: FilterListRequest): Promise<FilterListChange> {
  return (await request<FilterListChange>('POST', `${LISTS}/`, { body, envelope: false })).data;
}

/** Renames a list or, for a keyword list and its owner only, switches inclusion. */
export async function updateFilterList(id: number, body: { name?: string; inclusion?: boolean }): Promise<FilterList> {
  return (await request<FilterList>('PATCH', `${LISTS}/${id}`, { body })).data;
}

export async function deleteFilterList(id: number): Promise<void> {
  await request<{ deleted: boolean }>('DELETE', `${LISTS}/${id}`);
}

export async function addFilterEntries(id: number, type: FilterListType, values: string[]): Promise<FilterListChange> {
  const path = `${LISTS}/${id}/${entrySegment[type]}`;
  return (await request<FilterListChange>('POST', path, { body: { keywords: values }, envelope: false })).data;
}

export async function removeFilterEntries(id: number, type: FilterListType, ids: number[]): Promise<FilterList> {
  return (await request<FilterList>('DELETE', `${LISTS}/${id}/${entrySegment[type]}`, { body: { ids } })).data;
}

/** Sends a CSV file's text as the request body; the server adds every cell as an entry. */
export async function uploadFilterCsv(id: number, text: string): Promise<FilterListChange> {
  const raw = { contentType: 'text/csv', text };
  return (await request<FilterListChange>('POST', `${LISTS}/${id}/upload`, { raw, envelope: false })).data;
}

export async function fetchPrebuiltFilterLists(signal?: AbortSignal): Promise<PrebuiltFilterList[]> {
  return (await request<PrebuiltFilterList[]>('GET', '/api/v1/prebuilt-filter-lists/', { signal })).data;
}

export async function fetchObjectTypeahead(q: string, signal?: AbortSignal): Promise<ObjectUse[]> {
  const query = new URLSearchParams({ q, limit: '20' });
  return (await request<ObjectUse[]>('GET', `/api/v1/object-detection-typeahead?${query}`, { signal })).data;
}

/** Counts a use of an object keyword, so the organization's favourites rank first. */
export async function trackObjectUse(keyword: string): Promise<void> {
  await request<ObjectUse>('POST', '/api/v1/object-detection-typeahead', { body: { keyword } });
}
