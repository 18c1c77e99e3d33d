// The inbox's filters live in the address, so the grid, list and map views, a reload and a
// shared link all show the same matches. searchText is the top bar's parameter.
import type { InboxFilter, Match, MatchQuery, MatchSort, SearchInField } from '../api/monitor';

export const INBOX_FILTERS: { id: InboxFilter; label: string }[] = [
  { id: 'unread', label: 'Unread' },
  { id: 'flagged', label: 'Flagged' },
  { id: 'images', label: 'Images' },
  { id: 'video', label: 'Video' },
  { id: 'location', label: 'Location' },
];

export const SEARCH_IN_FIELDS: { id: SearchInField; label: string }[] = [
  { id: 'titleText', label: 'Title and text' },
  { id: 'authorName', label: 'Author name' },
  { id: 'authorScreenName', label: 'Author screen name' },
];

export const SORT_OPTIONS: { id: MatchSort; label: string }[] = [
  { id: 'published_desc', label: 'Published, newest first' },
  { id: 'published_asc', label: 'Published, oldest first' },
  { id: 'discovered_desc', label: 'Discovered, newest first' },
  { id: 'discovered_asc', label: 'Discovered, oldest first' },
];

export const DEFAULT_SORT: MatchSort = 'published_desc';

const ALL_SEARCH_IN = SEARCH_IN_FIELDS.map((f) => f.id);

function listParam<T extends string>(params: URLSearchParams, name: string, allowed: readonly T[]): T[] {
  const raw = params.get(name);
  if (!raw) return [];
  return raw.split(',').filter((value): value is T => (allowed as readonly string[]).includes(value));
}

/** The inbox query the address describes; fixedSearchIds pins it to saved searches (a search page). */
export function readInboxQuery(params: URLSearchParams, fixedSearchIds?: number[]): MatchQuery {
  const sort = params.get('sort');
  const searchIn = listParam(params, 'searchIn', ALL_SEARCH_IN);
  const ids = (params.get('monitorSearchIds') ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0);
  return {
    monitorSearchIds: fixedSearchIds ?? ids,
    filters: listParam(
      params,
      'filters',
      INBOX_FILTERS.map((f) => f.id),
    ),
    providers: (params.get('providers') ?? '').split(',').filter((name) => name !== ''),
    searchText: (params.get('searchText') ?? '').trim(),
    searchIn: searchIn.length > 0 ? searchIn : ALL_SEARCH_IN,
    sort: SORT_OPTIONS.some((o) => o.id === sort) ? (sort as MatchSort) : DEFAULT_SORT,
  };
}

/** Writes the parts of the query into params, leaving defaults out so addresses stay short. */
export function writeInboxQuery(params: URLSearchParams, query: Partial<MatchQuery>): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string) => (value === '' ? next.delete(name) : next.set(name, value));
  if (query.monitorSearchIds) set('monitorSearchIds', query.monitorSearchIds.join(','));
  if (query.filters) set('filters', query.filters.join(','));
  if (query.providers) set('providers', query.providers.join(','));
  if (query.searchText !== undefined) set('searchText', query.searchText.trim());
  if (query.searchIn) set('searchIn', query.searchIn.length === ALL_SEARCH_IN.length ? '' : query.searchIn.join(','));
  if (query.sort) set('sort', query.sort === DEFAULT_SORT ? '' : query.sort);
  return next;
}

/** Whether anything narrows the inbox beyond the saved searches it shows. */
export function isFiltered(query: MatchQuery): boolean {
  return query.filters.length > 0 || query.providers.length > 0 || query.searchText !== '';
}

/**
 * Whether a match belongs in the list the query selects: 'unknown' when only the server can
 * tell (a text search, whose analysis the server owns).
 */
export function matchFitsQuery(match: Match, query: MatchQuery): 'yes' | 'no' | 'unknown' {
  const { matchMeta, post } = match;
  if (match.isDeleted) return 'no';
  if (query.monitorSearchIds.length > 0 && !query.monitorSearchIds.includes(matchMeta.monitorSearchId)) return 'no';
  // A post stored before stories is a story of its own, under its own id.
  if (query.storyId && (post.storyId || post.id) !== query.storyId) return 'no';
  const passes: Record<InboxFilter, boolean> = {
    unread: !matchMeta.isRead,
    flagged: matchMeta.isFlagged,
    images: (post.photos?.length ?? 0) > 0,
    video: (post.videos?.length ?? 0) > 0,
    location: post.location !== undefined || (post.mentioned_locations?.length ?? 0) > 0,
  };
  if (query.filters.some((filter) => !passes[filter])) return 'no';
  if (query.providers.length > 0 && !query.providers.includes(post.provider)) return 'no';
  return query.searchText === '' ? 'yes' : 'unknown';
}
