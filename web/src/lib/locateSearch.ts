// Locate's search as the URL holds it, so a search can be bookmarked, shared and opened from
// the search builder's Test in Locate link (search-side.md section 5).
import type { FilterListSummary } from '../api/filters';
import type { LocateMedia, LocatePriority, LocateRequest, LocateSort, LocateType } from '../api/locate';
import { type LatLon, rectangleWkt } from './wkt';

export type LocateRange = 'all' | 'day' | 'week' | 'month' | 'quarter';

export interface LocateSearch {
  type: LocateType;
  keywords: string;
  author: string;
  /** The chosen place's name; empty for an area drawn on the map. */
  address: string;
  /** WKT polygon of the place or the drawn area. */
  bounds: string;
  providers: string[];
  /** Boards or groups the posts must come from, whatever the type; the builder's link sets them. */
  boards?: string[];
  range: LocateRange;
  /** An explicit window (unix milliseconds), which a link may carry; it wins over range. */
  from?: number;
  to?: number;
  media?: LocateMedia;
  priority?: LocatePriority;
  /** Absent for most recent first. */
  sort?: Exclude<LocateSort, 'recent'>;
  /** Ids of the search filter lists the results must pass (keyword and author lists). */
  filterLists?: number[];
}

export const LOCATE_TYPES: { id: LocateType; label: string }[] = [
  { id: 'keyword', label: 'Keyword' },
  { id: 'author', label: 'Author' },
  { id: 'location', label: 'Location' },
  { id: 'compound', label: 'Compound' },
];

/** Days back of each date shortcut; "all" reaches as far as the server keeps posts. */
const RANGE_DAYS: Record<Exclude<LocateRange, 'all'>, number> = { day: 1, week: 7, month: 30, quarter: 90 };

const RANGE_LABELS: Record<Exclude<LocateRange, 'all'>, string> = {
  day: 'Last 24 hours',
  week: 'Last week',
  month: 'Last month',
  quarter: 'Last 3 months',
};

const RANGE_IDS: LocateRange[] = ['all', 'day', 'week', 'month', 'quarter'];

/**
 * The date shortcuts (search-side.md section 5) that mean something on a server keeping posts
 * retentionDays days: "all", which says how far that is, and each shorter span. A span as long as
 * what is kept would be "all" under another name, so it is not offered.
 */
export function locateRanges(retentionDays: number): { id: LocateRange; label: string }[] {
  const spans = (Object.keys(RANGE_DAYS) as Exclude<LocateRange, 'all'>[]).filter((r) => RANGE_DAYS[r] < retentionDays);
  return [
    { id: 'all', label: `All (last ${retentionDays} days)` },
    ...spans.map((id) => ({ id, label: RANGE_LABELS[id] })),
  ];
}

export const LOCATE_MEDIA: { id: LocateMedia; label: string }[] = [
  { id: 'images', label: 'Images only' },
  { id: 'videos', label: 'Videos only' },
  { id: 'both', label: 'Images and videos' },
];

export const LOCATE_PRIORITIES: { id: LocatePriority; label: string }[] = [
  { id: 'elevated', label: 'Elevated and high' },
  { id: 'high', label: 'High only' },
];

export const LOCATE_SORTS: { id: LocateSort; label: string; order: string }[] = [
  { id: 'recent', label: 'Most recent', order: 'most recent first' },
  { id: 'popular', label: 'Most popular', order: 'most popular first' },
  { id: 'followers', label: 'Most followers', order: 'authors with most followers first' },
];

export function emptyLocateSearch(): LocateSearch {
  return { type: 'location', keywords: '', author: '', address: '', bounds: '', providers: [], range: 'all' };
}

// Half the side of the square a place's Locate search covers, in degrees: about a town.
const PLACE_HALF_SIDE = 0.05;

/** The Locate search of the area around a place a post names. */
export function placeSearchPath(place: { name: string; point: LatLon }): string {
  const { lat, lon } = place.point;
  const s = emptyLocateSearch();
  s.address = place.name;
  s.bounds = rectangleWkt(
    { lat: lat - PLACE_HALF_SIDE, lon: lon - PLACE_HALF_SIDE },
    { lat: lat + PLACE_HALF_SIDE, lon: lon + PLACE_HALF_SIDE },
  );
  return `/locate?${locateParams(s).toString()}`;
}

function list(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function ids(value: string | null): number[] {
  return [...new Set(list(value).map(Number))].filter((n) => Number.isInteger(n) && n > 0);
}

function millis(value: string | null): number | undefined {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : undefined;
}

export function locateFromParams(params: URLSearchParams): LocateSearch {
  const type = LOCATE_TYPES.find((t) => t.id === params.get('type'))?.id ?? 'location';
  const range = RANGE_IDS.find((r) => r === params.get('range')) ?? 'all';
  const media = LOCATE_MEDIA.find((m) => m.id === params.get('media'))?.id;
  const priority = LOCATE_PRIORITIES.find((m) => m.id === params.get('priority'))?.id;
  const sort = LOCATE_SORTS.find((o) => o.id !== 'recent' && o.id === params.get('sort'))?.id;
  const s: LocateSearch = {
    type,
    keywords: params.get('q') ?? '',
    author: params.get('author') ?? '',
    address: params.get('address') ?? '',
    bounds: params.get('bounds') ?? '',
    providers: list(params.get('providers')),
    range,
  };
  const boards = list(params.get('boards'));
  if (boards.length > 0) s.boards = boards;
  const from = millis(params.get('from'));
  const to = millis(params.get('to'));
  if (from !== undefined) s.from = from;
  if (to !== undefined) s.to = to;
  if (media) s.media = media;
  if (priority) s.priority = priority;
  if (sort && sort !== 'recent') s.sort = sort;
  const filterLists = ids(params.get('filters'));
  if (filterLists.length > 0) s.filterLists = filterLists;
  return s;
}

export function locateParams(s: LocateSearch): URLSearchParams {
  const p = new URLSearchParams({ type: s.type });
  if (s.keywords) p.set('q', s.keywords);
  if (s.author) p.set('author', s.author);
  if (s.address) p.set('address', s.address);
  if (s.bounds) p.set('bounds', s.bounds);
  if (s.providers.length > 0) p.set('providers', s.providers.join(','));
  if (s.boards && s.boards.length > 0) p.set('boards', s.boards.join(','));
  if (s.range !== 'all') p.set('range', s.range);
  if (s.from !== undefined) p.set('from', String(s.from));
  if (s.to !== undefined) p.set('to', String(s.to));
  if (s.media) p.set('media', s.media);
  if (s.priority) p.set('priority', s.priority);
  if (s.sort) p.set('sort', s.sort);
  if (s.filterLists && s.filterLists.length > 0) p.set('filters', s.filterLists.join(','));
  return p;
}

/**
 * The search a link from elsewhere describes, in the spec's parameters (address_bounds,
 * keywords, providers, author_query, boards, start_date, end_date in ms, images_only,
 * video_only, search_filters). Its type is the one field given, or compound for several.
 */
export function locateFromLink(params: URLSearchParams): LocateSearch {
  const s = emptyLocateSearch();
  s.keywords = params.get('keywords')?.trim() ?? '';
  s.author = params.get('author_query')?.trim() ?? '';
  s.bounds = params.get('address_bounds')?.trim() ?? '';
  s.providers = list(params.get('providers'));
  const boards = list(params.get('boards'));
  if (boards.length > 0) s.boards = boards;
  const from = millis(params.get('start_date'));
  const to = millis(params.get('end_date'));
  if (from !== undefined) s.from = from;
  if (to !== undefined) s.to = to;
  const images = params.get('images_only') === 'true';
  const videos = params.get('video_only') === 'true';
  if (images || videos) s.media = images && videos ? 'both' : images ? 'images' : 'videos';
  const filterLists = ids(params.get('search_filters'));
  if (filterLists.length > 0) s.filterLists = filterLists;
  const given: LocateType[] = [];
  if (s.keywords) given.push('keyword');
  if (s.author) given.push('author');
  if (s.bounds) given.push('location');
  s.type = given.length > 1 ? 'compound' : (given[0] ?? 'keyword');
  return s;
}

/** What the search lacks before it can run, in words; null when it can run. */
export function missingField(s: LocateSearch): string | null {
  const has = { keyword: s.keywords.trim() !== '', author: s.author.trim() !== '', location: s.bounds !== '' };
  switch (s.type) {
    case 'keyword':
      return has.keyword ? null : 'Enter keywords to search for.';
    case 'author':
      return has.author ? null : 'Enter an author’s name or handle.';
    case 'location':
      return has.location ? null : 'Choose a place or draw an area on the map.';
    case 'compound':
      return has.keyword || has.author || has.location ? null : 'Enter keywords, an author or a place.';
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The request for the search, with the fields of its type. The date shortcut stays relative, so
 * the same search keeps the same cache key; withLocateDates resolves it when the request is sent.
 */
export type LocateQuery = LocateRequest & { range?: Exclude<LocateRange, 'all'> };

export function locateRequest(s: LocateSearch): LocateQuery {
  const r: LocateQuery = { type: s.type };
  const compound = s.type === 'compound';
  if ((s.type === 'keyword' || compound) && s.keywords.trim()) r.keywords = s.keywords.trim();
  if ((s.type === 'author' || compound) && s.author.trim()) r.author = s.author.trim();
  if ((s.type === 'location' || compound) && s.bounds) r.bounds = s.bounds;
  if (s.providers.length > 0) r.providers = s.providers;
  if (s.boards && s.boards.length > 0) r.boards = s.boards;
  if (s.media) r.media = s.media;
  if (s.priority) r.priority = s.priority;
  if (s.sort) r.sort = s.sort;
  if (s.filterLists && s.filterLists.length > 0) r.searchFilters = s.filterLists;
  if (s.from !== undefined || s.to !== undefined) {
    if (s.from !== undefined) r.from = s.from;
    if (s.to !== undefined) r.to = s.to;
  } else if (s.range !== 'all') {
    r.range = s.range;
  }
  return r;
}

export function withLocateDates({ range, ...r }: LocateQuery, now: number): LocateRequest {
  return range ? { ...r, from: now - RANGE_DAYS[range] * DAY_MS } : r;
}

/** The filters with this media filter, or none. */
export function withMedia<T extends { media?: LocateMedia }>(filters: T, media: LocateMedia | undefined): T {
  const next = { ...filters };
  if (media) next.media = media;
  else delete next.media;
  return next;
}

/** The filters with this order; most recent is the default and left out. */
export function withSort<T extends { sort?: Exclude<LocateSort, 'recent'> }>(filters: T, sort: LocateSort): T {
  const next = { ...filters };
  if (sort !== 'recent') next.sort = sort;
  else delete next.sort;
  return next;
}

/** The filters with this priority, or none. */
export function withPriority<T extends { priority?: LocatePriority }>(
  filters: T,
  priority: LocatePriority | undefined,
): T {
  const next = { ...filters };
  if (priority) next.priority = priority;
  else delete next.priority;
  return next;
}

/** What a filter list does, as the menu names it. */
export function filterListKind(list: Pick<FilterListSummary, 'type' | 'inclusion'>): string {
  if (list.type === 'keyword') return list.inclusion ? 'keyword inclusion' : 'keyword exclusion';
  return list.type === 'author' ? 'author exclusion' : list.type.replace('_', ' ');
}
