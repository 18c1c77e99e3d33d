import type { SearchCategory, SearchRequest, SearchSort } from '../api/beacon';
import type { Provider } from '../api/monitor';

/** Beacon's result tabs (search-side.md section 2), each a view of the stored posts. */
export type BeaconTab =
  'results' | 'records' | 'deep-web' | 'dark-web' | 'documents' | 'breaches' | 'social' | 'flagged';

export interface TabDefinition {
  id: BeaconTab;
  label: string;
  /** The search behind the tab; none for Flagged, which lists the user's flags. */
  category?: SearchCategory;
  /** The data sources the tab keeps to, within its category; all of it when absent. */
  providers?: string[];
}

// Records are the paste sites and stolen-credential logs; Breaches the leaked databases; Documents
// merge forums, markets and hacking boards, as the spec's merged forums/markets/hacking search.
export const TABS: TabDefinition[] = [
  { id: 'results', label: 'Results', category: 'all' },
  { id: 'records', label: 'Records', category: 'documents', providers: ['pastebin', 'infectedhostdata'] },
  { id: 'deep-web', label: 'Deep Web', category: 'deep-web' },
  { id: 'dark-web', label: 'Dark Web', category: 'darkweb' },
  { id: 'documents', label: 'Documents', category: 'all', providers: ['forum', 'marketplaces', 'hacking'] },
  { id: 'breaches', label: 'Breaches', category: 'documents', providers: ['leaks'] },
  { id: 'social', label: 'Social', category: 'social' },
  { id: 'flagged', label: 'Flagged' },
];

export function tabOf(id: string | null): TabDefinition {
  return TABS.find((t) => t.id === id) ?? TABS[0]!;
}

/**
 * The tabs the user's data sources can search (the providers reply: what their subscriptions
 * reach, each enabled or not on this server). A tab keeps to those of its sources that are
 * enabled, and is left out when none is, since the server refuses a search naming a source it
 * cannot search (Records without Infected Host Data searches the pastes alone).
 */
export function availableTabs(providers: Provider[]): TabDefinition[] {
  return TABS.flatMap((tab) => {
    if (!tab.category) return [tab];
    const usable = providers.filter(
      (p) =>
        p.enabled &&
        (tab.providers ? tab.providers.includes(p.name) : tab.category === 'all' || p.category === tab.category),
    );
    if (usable.length === 0) return [];
    return [tab.providers ? { ...tab, providers: usable.map((p) => p.name) } : tab];
  });
}

/** Date shortcuts; posts are kept 30 days, so "all" is the last 30. */
export type DateShortcut = 'all' | 'day' | 'week';

export const DATE_SHORTCUTS: { id: DateShortcut; label: string }[] = [
  { id: 'all', label: 'Last 30 days' },
  { id: 'week', label: 'Last week' },
  { id: 'day', label: 'Last 24 hours' },
];

export const SORTS: { id: SearchSort; label: string }[] = [
  { id: 'published_desc', label: 'Published, newest first' },
  { id: 'published_asc', label: 'Published, oldest first' },
  { id: 'discovered_desc', label: 'Discovered, newest first' },
  { id: 'discovered_asc', label: 'Discovered, oldest first' },
  { id: 'relevance', label: 'Relevancy' },
];

/** A Beacon search as its URL holds it, so that a search can be shared, reloaded and re-run. */
export interface BeaconSearch {
  query: string;
  tab: BeaconTab;
  sort: SearchSort;
  range: DateShortcut;
  /** Unix milliseconds: an explicit window (advanced search, external links) instead of range. */
  from?: number;
  to?: number;
  /** Unix milliseconds: the date crawled, from and until (the server's default when absent). */
  crawledFrom?: number;
  crawledTo?: number;
  /** Data sources chosen in the filter, within the tab's. */
  providers: string[];
  authors: string[];
  boards: string[];
}

const list = (value: string | null): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const millis = (value: string | null): number | undefined => {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/**
 * Reads a search from the results URL. The spec's external-link parameters (text, authors,
 * boardNames, networks, startPublishedTimestamp, endPublishedTimestamp) are read too, so links
 * from other tools land on a filled-in, running search.
 */
export function searchFromParams(params: URLSearchParams): BeaconSearch {
  const sort = SORTS.find((s) => s.id === params.get('sort'))?.id ?? 'published_desc';
  const range = DATE_SHORTCUTS.find((d) => d.id === params.get('range'))?.id ?? 'all';
  return {
    query: params.get('q') ?? params.get('text') ?? '',
    tab: tabOf(params.get('tab')).id,
    sort,
    range,
    from: millis(params.get('from') ?? params.get('startPublishedTimestamp')),
    to: millis(params.get('to') ?? params.get('endPublishedTimestamp')),
    crawledFrom: millis(params.get('crawledFrom')),
    crawledTo: millis(params.get('crawledTo')),
    providers: list(params.get('providers') ?? params.get('networks')),
    authors: list(params.get('authors')),
    boards: list(params.get('boards') ?? params.get('boardNames')),
  };
}

/** The results URL's query string for a search. */
export function searchParams(s: BeaconSearch): URLSearchParams {
  const p = new URLSearchParams({ q: s.query });
  if (s.tab !== 'results') p.set('tab', s.tab);
  if (s.sort !== 'published_desc') p.set('sort', s.sort);
  if (s.from !== undefined || s.to !== undefined) {
    if (s.from !== undefined) p.set('from', String(s.from));
    if (s.to !== undefined) p.set('to', String(s.to));
  } else if (s.range !== 'all') {
    p.set('range', s.range);
  }
  if (s.crawledFrom !== undefined) p.set('crawledFrom', String(s.crawledFrom));
  if (s.crawledTo !== undefined) p.set('crawledTo', String(s.crawledTo));
  if (s.providers.length > 0) p.set('providers', s.providers.join(','));
  if (s.authors.length > 0) p.set('authors', s.authors.join(','));
  if (s.boards.length > 0) p.set('boards', s.boards.join(','));
  return p;
}

export const RESULTS_PATH = '/beacon/results';

export function resultsUrl(s: BeaconSearch): string {
  return `${RESULTS_PATH}?${searchParams(s)}`;
}

/** A new search of the text, with everything else at its default. */
export function newSearch(query: string): BeaconSearch {
  return { query, tab: 'results', sort: 'published_desc', range: 'all', providers: [], authors: [], boards: [] };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The request a tab sends for the search: the tab's data sources narrowed by the chosen ones
 * (categoryOf names each data source's category). Null when none of the chosen ones is in the
 * tab, which then has nothing to search. A date shortcut stays relative (range) until the
 * request is sent, so the same search keeps the same cache key; withDates resolves it.
 */
export type BeaconRequest = SearchRequest & { range?: Exclude<DateShortcut, 'all'> };

export function requestFor(
  s: BeaconSearch,
  tab: TabDefinition,
  categoryOf: (provider: string) => string | undefined,
): BeaconRequest | null {
  const inTab = (p: string) =>
    tab.providers ? tab.providers.includes(p) : tab.category === 'all' || categoryOf(p) === tab.category;
  let providers = tab.providers ?? [];
  if (s.providers.length > 0) {
    providers = s.providers.filter(inTab);
    if (providers.length === 0) return null;
  }
  const request: BeaconRequest = { query: s.query, sort: s.sort };
  if (providers.length > 0) request.providers = providers;
  if (s.authors.length > 0) request.authors = s.authors;
  if (s.boards.length > 0) request.boards = s.boards;
  if (s.from !== undefined || s.to !== undefined) {
    if (s.from !== undefined) request.startDate = s.from;
    if (s.to !== undefined) request.endDate = s.to;
  } else if (s.range !== 'all') {
    request.range = s.range;
  }
  if (s.crawledFrom !== undefined) request.discoveredStartDate = s.crawledFrom;
  if (s.crawledTo !== undefined) request.discoveredEndDate = s.crawledTo;
  return request;
}

/** The request as the API takes it: a date shortcut becomes a start counted back from now. */
export function withDates({ range, ...request }: BeaconRequest, now: number): SearchRequest {
  if (range === 'day') return { ...request, startDate: now - DAY_MS };
  if (range === 'week') return { ...request, startDate: now - 7 * DAY_MS };
  return request;
}

/** A search as the history keeps it: the request fields, with the tab and the date shortcut. */
export type HistoryRequest = SearchRequest & { tab: BeaconTab; range?: DateShortcut };

export function historyRequest(s: BeaconSearch): HistoryRequest {
  const r: HistoryRequest = { query: s.query, tab: s.tab, sort: s.sort };
  if (s.from !== undefined) r.startDate = s.from;
  if (s.to !== undefined) r.endDate = s.to;
  if (s.from === undefined && s.to === undefined && s.range !== 'all') r.range = s.range;
  if (s.crawledFrom !== undefined) r.discoveredStartDate = s.crawledFrom;
  if (s.crawledTo !== undefined) r.discoveredEndDate = s.crawledTo;
  if (s.providers.length > 0) r.providers = s.providers;
  if (s.authors.length > 0) r.authors = s.authors;
  if (s.boards.length > 0) r.boards = s.boards;
  return r;
}

/** The search a history entry holds, to run it again; unknown tabs and sorts fall back. */
export function searchFromHistory(r: SearchRequest & { tab?: string; range?: string }): BeaconSearch {
  return {
    query: r.query ?? '',
    tab: tabOf(r.tab ?? null).id,
    sort: SORTS.find((s) => s.id === r.sort)?.id ?? 'published_desc',
    range: DATE_SHORTCUTS.find((d) => d.id === r.range)?.id ?? 'all',
    from: r.startDate,
    to: r.endDate,
    crawledFrom: r.discoveredStartDate,
    crawledTo: r.discoveredEndDate,
    providers: r.providers ?? [],
    authors: r.authors ?? [],
    boards: r.boards ?? [],
  };
}
