// Monitor (monitor-area.md sections 3 and 7; shapes in docs/monitor-api.md): providers, groups,
// saved searches, matches and the builder's backtest.
import type {
  AlertType,
  Group,
  GroupMini,
  InboxStory,
  Match,
  MatchCounts,
  MonitorSearchSummary,
  Post,
  SearchReply,
  ShareRole,
  Privacy,
} from './contracts.gen';
import { request } from './transport';

// The reply types the server defines in Go are generated (contracts.gen.ts); they are re-exported
// here, beside their calls.
export type {
  Group,
  GroupMini,
  Match,
  MatchCounts,
  MatchCreated,
  MatchedTerm,
  MonitorSearchSummary,
  Person,
  Post,
  PostOrigin,
  Privacy,
  SearchStatus,
  SharingEntry,
  ShareRole,
} from './contracts.gen';

export const MONITOR = '/api/v1/monitor';

export type Region = 'global' | 'northAmerica' | 'asiaPacific' | 'europe' | 'middleEastAndAfrica';
export type ProviderKind = 'social' | 'forum' | 'newsBlogs' | 'chat' | 'imageSharing' | 'videoSharing' | 'other';

export interface Provider {
  name: string;
  displayName: string;
  /** False for specialty sources that need an approved use case. */
  enabled: boolean;
  beaconFeature: boolean;
  searchFeatures: { location: boolean; keyword: boolean; author: boolean; boardName: boolean };
  region: Region;
  /** What sort of content it carries, the selector's other grouping. */
  kind: ProviderKind;
  color: string;
  icon: string;
  /** Providers whose posts this one carries too. */
  supersetOf: string[];
  category: string;
}

/** Every member of a group, its searches included: the reply of one group. */
export type GroupWithSearches = Group & { searches: MonitorSearchSummary[] };

/** A saved search; its alerts are typed here until the alert settings have a Go type to generate from. */
export interface MonitorSearch extends Omit<SearchReply, 'notificationSettings'> {
  notificationSettings: NotificationSetting[];
}

export interface NotificationDestination {
  /** The name of the channel that carries it (AlertChannel.name). */
  type: string;
  address: string;
}

export interface NotificationSetting {
  type: AlertType;
  /** Seconds between deliveries; 0 is off. Webhooks keep 0: they are on while they have a destination. */
  interval: number;
  destinations: NotificationDestination[];
  /** fpids of location configurations (proximity alerts only). */
  locationAssetIds?: string[];
  /** Unix seconds of the last change, null when never saved (notification-settings replies only). */
  lastUpdatedAt?: number | null;
  /**
   * story: one alert when a story first matches and one at each escalation; post: one alert for
   * the new matches. The server keeps an alert's grouping when none is sent, and gives a new one story.
   */
  grouping?: AlertGrouping;
}

export type AlertGrouping = 'post' | 'story';

/** The create and update payload of a saved search (the spec's request payload form). */
export interface SearchRequest {
  group_id: number | null;
  name: string;
  author_id: string;
  author_query: string;
  address: string;
  address_bounds: string;
  keywords: string;
  providers: string[];
  start_at: number | null;
  end_at: number | null;
  search_filters: number[];
  images_only: boolean;
  video_only: boolean;
  board_names: string[];
  alerts: NotificationSetting[];
  shared_users: { username: string; role: ShareRole }[];
  /** Once saved, fill the inbox from the stored posts of the last days (0 to 30; none when left out). */
  backfillDays?: number;
}

export interface GroupRequest {
  name?: string;
  privacy?: Privacy;
  isFavourite?: boolean;
  sharedUsers?: { username: string; role: ShareRole }[];
}

export async function fetchProviders(signal?: AbortSignal): Promise<Provider[]> {
  return (await request<Provider[]>('GET', `${MONITOR}/providers`, { signal })).data;
}

export async function fetchGroupsMini(signal?: AbortSignal): Promise<GroupMini[]> {
  return (await request<GroupMini[]>('GET', `${MONITOR}/monitor-search-groups/mini`, { signal })).data;
}

export async function fetchGroups(signal?: AbortSignal): Promise<Group[]> {
  return (await request<Group[]>('GET', `${MONITOR}/monitor-search-groups`, { signal })).data;
}

export async function fetchGroup(id: number, signal?: AbortSignal): Promise<GroupWithSearches> {
  return (await request<GroupWithSearches>('GET', `${MONITOR}/monitor-search-groups/${id}`, { signal })).data;
}

export async function createGroup(body: GroupRequest): Promise<Group> {
  return (await request<Group>('POST', `${MONITOR}/monitor-search-groups`, { body })).data;
}

export async function updateGroup(id: number, body: GroupRequest): Promise<Group> {
  return (await request<Group>('PUT', `${MONITOR}/monitor-search-groups/${id}`, { body })).data;
}

export async function detachGroup(id: number): Promise<void> {
  await request('PUT', `${MONITOR}/monitor-search-groups/${id}/detach`);
}

export async function deleteGroup(id: number): Promise<void> {
  await request('DELETE', `${MONITOR}/monitor-search-groups/${id}`);
}

export async function fetchSearches(signal?: AbortSignal): Promise<MonitorSearchSummary[]> {
  return (await request<MonitorSearchSummary[]>('GET', `${MONITOR}/searches`, { signal })).data;
}

export async function fetchSearch(id: number, signal?: AbortSignal): Promise<MonitorSearch> {
  return (await request<MonitorSearch>('GET', `${MONITOR}/searches/${id}`, { signal })).data;
}

export async function createSearch(body: SearchRequest): Promise<MonitorSearch> {
  return (await request<MonitorSearch>('POST', `${MONITOR}/searches`, { body })).data;
}

export async function updateSearch(id: number, body: SearchRequest): Promise<MonitorSearch> {
  return (await request<MonitorSearch>('PUT', `${MONITOR}/searches/${id}`, { body })).data;
}

export async function detachSearch(id: number): Promise<void> {
  await request('PUT', `${MONITOR}/searches/${id}/detach`);
}

export async function deleteSearch(id: number): Promise<void> {
  await request('DELETE', `${MONITOR}/searches/${id}`);
}

export async function moveSearches(monitorSearches: number[], groupId: number): Promise<void> {
  await request('PATCH', `${MONITOR}/searches/group`, { body: { monitorSearches, groupId } });
}

/** The per-search switches of PATCH searches/settings/{id}/{setting}, with their body field. */
export type SearchSetting =
  | { setting: 'enable'; enabled: boolean }
  | { setting: 'favourite'; favourite: boolean }
  | { setting: 'hidden'; hidden: boolean }
  | { setting: 'gnipOverride'; gnip_limiter_override: boolean }
  | { setting: 'streamingOverride'; percolate_limiter_override: boolean };

export async function updateSearchSetting(id: number, change: SearchSetting): Promise<MonitorSearch> {
  const { setting, ...body } = change;
  return (await request<MonitorSearch>('PATCH', `${MONITOR}/searches/settings/${id}/${setting}`, { body })).data;
}

// ---- Matches ----

export type MatchSort = 'published_desc' | 'published_asc' | 'discovered_desc' | 'discovered_asc';
export type SearchInField = 'titleText' | 'authorName' | 'authorScreenName';
export type InboxFilter = 'images' | 'location' | 'video' | 'unread' | 'flagged';

/** What selects matches: the inbox list and the update-all calls take the same filters. */
export interface MatchQuery {
  monitorSearchIds: number[];
  filters: InboxFilter[];
  /** Data sources to keep (provider names); none keeps all. */
  providers: string[];
  searchText: string;
  searchIn: SearchInField[];
  sort: MatchSort;
  /** Only the matches of this story's posts (a story card's matches and its actions). */
  storyId?: string;
}

export interface MatchPage {
  matches: Match[];
  page: number;
  lastPage: number;
  total: number;
  /** When the server read this page (ms since 1970): actions on "filtered" or "all" stop there. */
  asOf: number;
}

export interface UpdateResult {
  updatedCount: number;
  expectedCount: number;
}

export type MatchFlag = 'is-flagged' | 'is-read' | 'is-deleted';

const setFieldOf: Record<MatchFlag, string> = {
  'is-flagged': 'setIsFlagged',
  'is-read': 'setMarkedAsRead',
  'is-deleted': 'setIsDeleted',
};

/** The list filters as the server reads them, for the query string or an update-all body. */
export function matchQueryFields(query: MatchQuery): Record<string, string> {
  const fields: Record<string, string> = { sort: query.sort };
  if (query.monitorSearchIds.length > 0) fields.monitorSearchIds = query.monitorSearchIds.join(',');
  for (const filter of query.filters) fields[filter] = 'true';
  if (query.providers.length > 0) fields.providers = query.providers.join(',');
  if (query.searchText !== '') {
    fields.searchText = query.searchText;
    if (query.searchIn.length > 0) fields.searchIn = query.searchIn.join(',');
  }
  if (query.storyId) fields.storyId = query.storyId;
  return fields;
}

export async function fetchMatches(
  query: MatchQuery,
  page: number,
  perPage: number,
  signal?: AbortSignal,
): Promise<MatchPage> {
  const params = new URLSearchParams({ ...matchQueryFields(query), page: String(page), perPage: String(perPage) });
  const reply = await request<Match[]>('GET', `${MONITOR}/matches?${params.toString()}`, { signal });
  const meta = reply.meta as { current_page: number; last_page: number; total: number; as_of: number };
  return {
    matches: reply.data,
    page: meta.current_page,
    lastPage: meta.last_page,
    total: meta.total,
    asOf: meta.as_of,
  };
}

/**
 * How many matches query selects that were made after since (a list's asOf): the ones waiting
 * behind "Show them".
 */
export async function fetchMatchesWaiting(query: MatchQuery, since: number, signal?: AbortSignal): Promise<number> {
  const params = new URLSearchParams({ ...matchQueryFields(query), since: String(since), perPage: '1' });
  const reply = await request<Match[]>('GET', `${MONITOR}/matches?${params.toString()}`, { signal });
  return (reply.meta as { total: number }).total;
}

export interface InboxStoryPage {
  stories: InboxStory[];
  page: number;
  lastPage: number;
  /** How many stories the filters select. */
  total: number;
  /** When the server read this page (ms since 1970): a story's actions stop there. */
  asOf: number;
}

/** The inbox grouped by story (groupBy=story): a row a story, newest story first. */
export async function fetchInboxStories(
  query: MatchQuery,
  page: number,
  perPage: number,
  signal?: AbortSignal,
): Promise<InboxStoryPage> {
  const params = new URLSearchParams({
    ...matchQueryFields(query),
    groupBy: 'story',
    page: String(page),
    perPage: String(perPage),
  });
  const reply = await request<InboxStory[]>('GET', `${MONITOR}/matches?${params.toString()}`, { signal });
  const meta = reply.meta as { current_page: number; last_page: number; total: number; as_of: number };
  return {
    stories: reply.data,
    page: meta.current_page,
    lastPage: meta.last_page,
    total: meta.total,
    asOf: meta.as_of,
  };
}

export async function fetchMatchesById(matchIds: number[], signal?: AbortSignal): Promise<Match[]> {
  const params = new URLSearchParams({ matchIds: matchIds.join(',') });
  return (await request<Match[]>('GET', `${MONITOR}/matches/list?${params.toString()}`, { signal })).data;
}

export async function updateMatches(flag: MatchFlag, matchIds: number[], value: boolean): Promise<UpdateResult> {
  const body = { matchResultDocuments: matchIds, [setFieldOf[flag]]: value };
  return (await request<UpdateResult>('PATCH', `${MONITOR}/matches/update/${flag}`, { body })).data;
}

/** The inbox filters as a JSON body (the update-all actions and exports take them). */
export function matchFilterBody(query: MatchQuery): Record<string, unknown> {
  const { filters, monitorSearchIds, providers, searchText, searchIn, storyId } = query;
  const body: Record<string, unknown> = {};
  if (storyId) body.storyId = storyId;
  if (monitorSearchIds.length > 0) body.monitorSearchIds = monitorSearchIds;
  if (providers.length > 0) body.providers = providers;
  for (const filter of filters) body[filter] = true;
  if (searchText !== '') {
    body.searchText = searchText;
    body.searchIn = searchIn;
  }
  return body;
}

/**
 * Sets the flag on every match the query selects, loaded or not, up to upTo (a list's asOf) when
 * given: matches that arrived since the analyst read the list wait behind "Show them" and are left alone.
 */
export async function updateAllMatches(
  flag: MatchFlag,
  query: MatchQuery,
  value: boolean,
  upTo?: number,
): Promise<UpdateResult> {
  const body = { ...matchFilterBody(query), ...(upTo !== undefined && { upTo }), [setFieldOf[flag]]: value };
  return (await request<UpdateResult>('PATCH', `${MONITOR}/matches/update-all/${flag}`, { body })).data;
}

export async function fetchMatchCounts(signal?: AbortSignal): Promise<MatchCounts> {
  return (await request<MatchCounts>('GET', `${MONITOR}/matches/counts`, { signal })).data;
}

export async function fetchMatchCountsBySearch(
  monitorSearchIds: number[],
  signal?: AbortSignal,
): Promise<(MatchCounts & { monitorSearchId: number })[]> {
  const params = new URLSearchParams({ monitorSearchIds: monitorSearchIds.join(',') });
  return (
    await request<(MatchCounts & { monitorSearchId: number })[]>(
      'GET',
      `${MONITOR}/matches/counts/list?${params.toString()}`,
      { signal },
    )
  ).data;
}

export async function fetchThreadContext(
  postId: string,
  signal?: AbortSignal,
): Promise<{ post: Post; thread: Post[] }> {
  const path = `${MONITOR}/matches/thread-context/${encodeURIComponent(postId)}`;
  return (await request<{ post: Post; thread: Post[] }>('GET', path, { signal })).data;
}

/** A draft search to preview: the create payload, the search being edited, the window. */
export interface BacktestRequest extends SearchRequest {
  monitorSearchId?: number;
  /** The last `days` days up to now (1 to 30; 30 when left out). */
  days?: number;
  /** Day boundaries in the viewer's time zone, minutes east of UTC. */
  utcOffsetMinutes?: number;
}

/** What a draft search matches among the stored posts of its window (docs/monitor-api.md, Backtest). */
export interface BacktestResult {
  count: number;
  perDay: { date: string; count: number }[];
  /** count / days covered: the window, or from coveredFrom when truncated. */
  expectedPerDay: number;
  /** The newest matches, at most 20. */
  samples: Post[];
  truncated: boolean;
  scanned: number;
  /** Unix seconds. */
  from: number;
  to: number;
  coveredFrom: number;
  /** What to expect a day, from the last (up to) seven 24-hour days: their mean, fewest and most. */
  expected: { perDay: number; low: number; high: number; days: number };
  /** backfill[d - 1]: the matches of the last d days, what saving with backfillDays d brings in. */
  backfill: number[];
}

export async function backtestSearch(body: BacktestRequest, signal?: AbortSignal): Promise<BacktestResult> {
  return (await request<BacktestResult>('POST', `${MONITOR}/searches/backtest`, { body, signal })).data;
}
