// The one way the app talks to the Sightline server: a fetch wrapper that adds the session,
// anti-forgery and bearer headers every call needs, and the typed calls built on it.
import { readCookie } from '../lib/cookies';
import { loadPage } from '../lib/navigation';

export type DisplayTheme = 'light' | 'dark' | 'system';

export interface Profile {
  id: number;
  name: string;
  email: string;
  username: string;
  is_mfa_enabled: boolean;
  is_translation_enrichment_enabled: boolean;
  is_mentioned_locations_enrichment_enabled: boolean;
  is_inbox_streaming_enabled: boolean;
  display_theme: DisplayTheme;
  media_sensitivity: 'blur' | 'show';
  is_tenant_admin: boolean;
  role: 'owner' | 'admin' | 'member';
  acl: {
    beacon: boolean;
    pro: boolean;
    enterprise: boolean;
    locate_api: boolean;
    rfi: boolean;
    intel_reports: boolean;
  };
  organization: {
    id: number;
    name: string;
    crm_id: string;
    is_uspi_compliant: boolean;
    is_moose_mind_enabled: boolean;
    feature_flags: Record<string, boolean>;
    monthly_data_limit: number;
    asset_limit: number;
  };
  tenant: {
    id: number;
    name: string;
    logout: boolean;
    support_email: string;
    /** The designated tenant that proximity alerts are not offered to. */
    is_ecs: boolean;
  };
  social_accounts: unknown[];
}

export interface OrganizationMember {
  id: number;
  email: string;
  username: string;
  name: string;
  role: Profile['role'];
}

export interface Organization {
  id: number;
  name: string;
  crm_id: string;
  users: OrganizationMember[];
}

export interface SessionToken {
  token: string;
  /** Unix seconds. */
  expiresAt: number;
}

export interface LoginRequest {
  email: string;
  password: string;
  otp?: string;
}

/** The error shape every failing reply uses. */
export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
  limitExceeded?: boolean;
  title?: string;
  description?: string;
  mfaRequired?: boolean;
  /** Keywords too broad to monitor; the message then holds a title and three lines of text. */
  blacklistedKeywords?: string[];
}

export const REQUEST_TIMEOUT_MS = 60_000;
export const GENERIC_ERROR_MESSAGE = 'There was an issue making your request. Please try again.';
const TIMEOUT_MESSAGE = 'The server took too long to answer. Please try again.';

export class ApiError extends Error {
  /** The HTTP status, or 0 when no reply came (network failure, time-out, cancel). */
  readonly status: number;
  readonly body: ErrorBody | undefined;
  /** The caller gave up on the request; screens ignore these silently. */
  readonly canceled: boolean;

  constructor(message: string, status: number, body?: ErrorBody, canceled = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.canceled = canceled;
  }
}

// The bearer token lives in memory only; after a reload the session cookie buys a new one.
let heldToken: (SessionToken & { obtainedAt: number }) | null = null;

export function currentToken(): SessionToken | null {
  return heldToken && { token: heldToken.token, expiresAt: heldToken.expiresAt };
}

/** When the held token was obtained, in milliseconds since the epoch (0 when none is held). */
export function tokenObtainedAt(): number {
  return heldToken?.obtainedAt ?? 0;
}

function holdToken(token: SessionToken): void {
  heldToken = { ...token, obtainedAt: Date.now() };
}

// A token this close to its end could expire on the way to the server.
const EXPIRY_MARGIN_MS = 30_000;

/** Whether the held token is still good; after a laptop sleeps it often is not. */
function holdsFreshToken(): boolean {
  return heldToken !== null && heldToken.expiresAt * 1000 - Date.now() > EXPIRY_MARGIN_MS;
}

/** Forgets the held token, so each test starts signed out. */
export function forgetToken(): void {
  heldToken = null;
}

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Sign-in and the boot-time token call answer 401 to people who are simply not signed in:
   * they report it to the caller. Every other call treats 401 and 419 as a lost session.
   */
  unauthenticated?: 'sign-out' | 'report';
  /**
   * Sign-in and the token call are about the session itself: they never renew the token first,
   * and send it only while it is fresh, so the session cookie can speak for an expired one.
   */
  sessionCall?: boolean;
  /** Replies come in the {"data": ...} envelope unless this is false. */
  envelope?: boolean;
  /** A body sent as is (a file's text) with its media type, instead of a JSON body. */
  raw?: { contentType: string; text: string };
}

export interface Reply<T> {
  data: T;
  /** Paging details of list replies. */
  meta: unknown;
  headers: Headers;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<Reply<T>> {
  if (!options.sessionCall && heldToken && !holdsFreshToken()) await renewToken();
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  const xsrf = readCookie('XSRF-TOKEN');
  if (xsrf !== undefined) headers['X-XSRF-TOKEN'] = xsrf;
  if (heldToken && (!options.sessionCall || holdsFreshToken())) headers.Authorization = `Bearer ${heldToken.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.raw) headers['Content-Type'] = options.raw.contentType;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const callerSignal = options.signal;
  const forwardAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  callerSignal?.addEventListener('abort', forwardAbort, { once: true });

  try {
    const response = await fetch(path, {
      method,
      headers,
      credentials: 'include',
      body: options.raw ? options.raw.text : options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
    });
    const payload = await readJson(response);
    if (response.ok) {
      if (options.envelope === false) return { data: payload as T, meta: undefined, headers: response.headers };
      const { data, meta } = (payload ?? {}) as { data: T; meta?: unknown };
      return { data, meta, headers: response.headers };
    }
    const body = asErrorBody(payload);
    if ((response.status === 401 || response.status === 419) && options.unauthenticated !== 'report') {
      loadPage('/logout');
    }
    throw new ApiError(body?.message || GENERIC_ERROR_MESSAGE, response.status, body);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (callerSignal?.aborted) throw new ApiError('canceled', 0, undefined, true);
    if (timedOut) throw new ApiError(TIMEOUT_MESSAGE, 0);
    throw new ApiError(GENERIC_ERROR_MESSAGE, 0);
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', forwardAbort);
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A proxy's HTML error page says nothing the user can act on.
    return undefined;
  }
}

function asErrorBody(payload: unknown): ErrorBody | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const message = (payload as { message?: unknown }).message;
  return typeof message === 'string' ? (payload as ErrorBody) : undefined;
}

/** Signs in; the reply also sets the session cookie. A 401 is reported, never a sign-out. */
export async function login(credentials: LoginRequest): Promise<{ token: SessionToken; user: Profile }> {
  const { data } = await request<SessionToken & { user: Profile }>('POST', '/api/v1/auth/login', {
    body: credentials,
    unauthenticated: 'report',
    sessionCall: true,
  });
  const token = { token: data.token, expiresAt: data.expiresAt };
  holdToken(token);
  return { token, user: data.user };
}

let renewal: Promise<SessionToken> | null = null;

/**
 * Trades the session cookie for a fresh bearer token; calls made meanwhile share one renewal.
 * At boot a 401 only means "not signed in" and is reported; later it means the session ended.
 */
export function renewToken({ atBoot = false } = {}): Promise<SessionToken> {
  renewal ??= requestToken(atBoot).finally(() => {
    renewal = null;
  });
  return renewal;
}

async function requestToken(atBoot: boolean): Promise<SessionToken> {
  const { data, headers } = await request<SessionToken>('PUT', '/api/v1/token', {
    unauthenticated: atBoot ? 'report' : 'sign-out',
    sessionCall: true,
  });
  const fromHeader = headers.get('Authorization')?.replace(/^Bearer\s+/i, '');
  const token = { token: data.token || fromHeader || '', expiresAt: data.expiresAt };
  if (token.token === '') throw new ApiError(GENERIC_ERROR_MESSAGE, 200);
  holdToken(token);
  return token;
}

export async function fetchProfile(signal?: AbortSignal): Promise<Profile> {
  return (await request<Profile>('GET', '/api/v1/settings/profile/current', { signal })).data;
}

export async function updateDisplayTheme(displayTheme: DisplayTheme): Promise<Profile> {
  return (
    await request<Profile>('PATCH', '/api/v1/settings/profile/update/display-theme', {
      body: { display_theme: displayTheme },
    })
  ).data;
}

/** Turns the live arrival of new matches in the inbox on or off. */
export async function toggleInboxStreaming(): Promise<Profile> {
  return (await request<Profile>('PATCH', '/api/v1/settings/profile/update/is-inbox-streaming-enabled')).data;
}

export async function fetchOrganization(signal?: AbortSignal): Promise<Organization> {
  // The organization comes wrapped twice: {"data": {"data": {...}}}.
  return (await request<{ data: Organization }>('GET', '/api/v1/settings/organizations/current', { signal })).data.data;
}

// ---- Geocoding (search-side.md section 7) ----

export interface GeocodeSuggestion {
  /** "City, Region, Country"; looking it up finds this place again. */
  address: string;
  name: string;
  region?: string;
  country?: string;
  kind: string;
}

export interface GeocodeResult {
  address: string;
  name: string;
  /** The place's outline or box as WKT. */
  bounds: string;
  point: { lat: number; lon: number };
  is_address_in_us_territory: boolean;
}

export async function geocodeAutocomplete(address: string, signal?: AbortSignal): Promise<GeocodeSuggestion[]> {
  const query = new URLSearchParams({ address }).toString();
  return (await request<GeocodeSuggestion[]>('GET', `/api/v1/geocode/autocomplete?${query}`, { signal })).data;
}

export async function geocodeAddress(address: string, signal?: AbortSignal): Promise<GeocodeResult> {
  const query = new URLSearchParams({ address }).toString();
  return (await request<GeocodeResult>('GET', `/api/v1/geocode/address?${query}`, { signal })).data;
}

// ---- Monitor (monitor-area.md sections 3 and 7; shapes in docs/monitor-api.md) ----

const MONITOR = '/api/v1/monitor';

export type Region = 'global' | 'northAmerica' | 'asiaPacific' | 'europe' | 'middleEastAndAfrica';

export interface Provider {
  name: string;
  displayName: string;
  /** False for specialty sources that need an approved use case. */
  enabled: boolean;
  beaconFeature: boolean;
  searchFeatures: { location: boolean; keyword: boolean; author: boolean; boardName: boolean };
  region: Region;
  color: string;
  icon: string;
  /** Providers whose posts this one carries too. */
  supersetOf: string[];
  category: string;
}

export type ShareRole = 'full_access' | 'read_only';
export type Privacy = 'shared' | 'readonly' | 'private';

export interface SharingEntry {
  id: number;
  email: string;
  username: string;
  name: string;
  role: ShareRole;
  /** Access inherited from the group; not editable on its own. */
  fromGroup: boolean;
}

export interface Owner {
  id: number;
  email: string;
  username: string;
  role: 'owner';
}

export interface GroupMini {
  id: number;
  name: string;
  privacy: Privacy;
  /** The owner's "Uncategorized" group. */
  isSavedSearch: boolean;
  canEdit: boolean;
  isFavourite: boolean;
}

export interface Group extends GroupMini {
  canManageSharing: boolean;
  owner: Owner;
  sharedUsers: SharingEntry[];
  searchCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface GroupWithSearches extends Group {
  searches: MonitorSearchSummary[];
}

export type SearchStatus = 'active' | 'paused' | 'scheduled' | 'ended' | 'expired';

/** The minimal form of a saved search that lists carry. */
export interface MonitorSearchSummary {
  id: number;
  savedSearchId: number;
  value: string;
  groupId: number;
  enabled: boolean;
  favourite: boolean;
  status: SearchStatus;
  canEdit: boolean;
  owner: Owner;
  search: { keywords: string[]; providers: { name: string }[] };
}

export interface MonitorSearch extends MonitorSearchSummary {
  canManageSharing: boolean;
  gnipLowerLimitExceeded: boolean;
  gnipUpperLimitExceeded: boolean;
  streamingLowerLimitExceeded: boolean;
  streamingUpperLimitExceeded: boolean;
  /** Unix seconds, or null when no override runs. */
  gnipOverrideUntil: number | null;
  streamingOverrideUntil: number | null;
  start_at: number | null;
  end_at: number | null;
  polygons: string[];
  sharedUsers: SharingEntry[];
  filterLists: { id: number }[];
  notificationSettings: NotificationSetting[];
  search: {
    address: string;
    address_bounds: string;
    author_id: string;
    author_query: string;
    query: string;
    keywords: string[];
    summary: string;
    providers: { name: string }[];
    images_only: boolean;
    video_only: boolean;
    board_names: string[];
  };
  createdAt: number;
  updatedAt: number;
}

export interface NotificationSetting {
  type: 'batch' | 'digest' | 'webhook' | 'proximity' | 'ai_summary';
  interval: number;
  destinations: { type: 'email' | 'webhook'; address: string }[];
  /** fpids of location configurations (proximity alerts only). */
  locationAssetIds?: string[];
}

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
  | { setting: 'gnipOverride'; gnip_limiter_override: boolean }
  | { setting: 'streamingOverride'; percolate_limiter_override: boolean };

export async function updateSearchSetting(id: number, change: SearchSetting): Promise<MonitorSearch> {
  const { setting, ...body } = change;
  return (await request<MonitorSearch>('PATCH', `${MONITOR}/searches/settings/${id}/${setting}`, { body })).data;
}

// ---- Matches ----

/** A stored post (internal/post/post.go). */
export interface Post {
  id: string;
  provider: string;
  native_id: string;
  content_type: string;
  author_id?: string;
  author_name?: string;
  author_screen_name?: string;
  author_thumbnail?: string;
  author_url?: string;
  title_text?: string;
  content_text?: string;
  post_link?: string;
  language?: string;
  tags?: string[];
  published_at: string;
  discovered_at: string;
  location?: { lat: number; lon: number };
  place_name?: string;
  photos?: { large: string; normal?: string }[];
  videos?: { large: string; normal?: string }[];
  board?: string;
  thread_id?: string;
  parent_id?: string;
  detected_objects?: string[];
  mentioned_locations?: { name: string; country_code: string; point: { lat: number; lon: number } }[];
  threat?: { score: number; reasons?: string[] };
  demo?: boolean;
}

export interface Match {
  matchMeta: { matchId: number; monitorSearchId: number; canEdit: boolean; isFlagged: boolean; isRead: boolean };
  isDeleted: boolean;
  /** Unix seconds. */
  discoveredDate: number;
  publishedDate: number;
  monitorSearchName: string;
  post: Post;
}

export type MatchSort = 'published_desc' | 'published_asc' | 'discovered_desc' | 'discovered_asc';
export type SearchInField = 'titleText' | 'authorName' | 'authorScreenName';
export type InboxFilter = 'images' | 'location' | 'video' | 'unread' | 'flagged';

/** What selects matches: the inbox list and the update-all calls take the same filters. */
export interface MatchQuery {
  monitorSearchIds: number[];
  filters: InboxFilter[];
  searchText: string;
  searchIn: SearchInField[];
  sort: MatchSort;
}

export interface MatchPage {
  matches: Match[];
  page: number;
  lastPage: number;
  total: number;
}

export interface MatchCounts {
  totalCount: number;
  unreadCount: number;
  deletedCount: number;
  flaggedCount: number;
}

/** A live monitor.match.created event: the match; the last of a batch may say how many more arrived. */
export interface MatchCreated {
  match: Match;
  more?: number;
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
  if (query.searchText !== '') {
    fields.searchText = query.searchText;
    if (query.searchIn.length > 0) fields.searchIn = query.searchIn.join(',');
  }
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
  const meta = reply.meta as { current_page: number; last_page: number; total: number };
  return { matches: reply.data, page: meta.current_page, lastPage: meta.last_page, total: meta.total };
}

export async function fetchMatchesById(matchIds: number[], signal?: AbortSignal): Promise<Match[]> {
  const params = new URLSearchParams({ matchIds: matchIds.join(',') });
  return (await request<Match[]>('GET', `${MONITOR}/matches/list?${params.toString()}`, { signal })).data;
}

export async function updateMatches(flag: MatchFlag, matchIds: number[], value: boolean): Promise<UpdateResult> {
  const body = { matchResultDocuments: matchIds, [setFieldOf[flag]]: value };
  return (await request<UpdateResult>('PATCH', `${MONITOR}/matches/update/${flag}`, { body })).data;
}

/** Sets the flag on every match the query selects, loaded or not. */
export async function updateAllMatches(flag: MatchFlag, query: MatchQuery, value: boolean): Promise<UpdateResult> {
  const { filters, monitorSearchIds, searchText, searchIn } = query;
  const body: Record<string, unknown> = { [setFieldOf[flag]]: value };
  if (monitorSearchIds.length > 0) body.monitorSearchIds = monitorSearchIds;
  for (const filter of filters) body[filter] = true;
  if (searchText !== '') {
    body.searchText = searchText;
    body.searchIn = searchIn;
  }
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

// ---- Filter lists (only what the builder needs; the filters screens own the rest) ----

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

// ---- Location configurations ----

/** A location configuration as the notification panels list it. */
export interface LocationConfiguration {
  id: number;
  fpid: string;
  name: string;
  address: string;
}

/** All the organization's location configurations (one page of 1000, as the pickers use). */
export async function fetchLocationConfigurations(signal?: AbortSignal): Promise<LocationConfiguration[]> {
  return (
    await request<LocationConfiguration[]>('GET', '/api/v1/configurations-manager/configurations?limit=1000', {
      signal,
    })
  ).data;
}

// ---- Live channel ----

export interface LiveConfig {
  key: string;
  host: string;
  port: number;
  tls: boolean;
  /** Milliseconds between pings. */
  pingInterval: number;
}

export async function fetchLiveConfig(signal?: AbortSignal): Promise<LiveConfig> {
  return (await request<LiveConfig>('GET', '/api/v1/live/config', { signal })).data;
}

/** Signs a private channel for this socket; the bearer token says who asks. */
export async function authorizeChannel(socketId: string, channelName: string): Promise<{ auth: string }> {
  // /broadcasting/auth answers without the data envelope, as pusher-js expects.
  return (
    await request<{ auth: string }>('POST', '/broadcasting/auth', {
      body: { socket_id: socketId, channel_name: channelName },
      envelope: false,
    })
  ).data;
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
}

export async function backtestSearch(body: BacktestRequest, signal?: AbortSignal): Promise<BacktestResult> {
  return (await request<BacktestResult>('POST', `${MONITOR}/searches/backtest`, { body, signal })).data;
}

/** Every dashboard widget's data over the user's visible saved searches (or the chosen ones). */
export interface Dashboard {
  resultCount: number;
  unreadCount: number;
  /** Results stored in the last 24 hours. */
  newCount: number;
  /** From the 200 most recent results. */
  topAuthors: { name: string; screenName: string; provider: string; count: number }[];
  topProviders: { provider: string; count: number }[];
  /** Places named in results of the last 30 days. */
  topMentionedLocations: { name: string; countryCode: string; lat: number; lon: number; count: number }[];
  /** Results of the last 30 days by UTC weekday (0 Sunday) and hour; empty cells left out. */
  heatmap: { weekday: number; hour: number; count: number }[];
  /** Results per UTC day (YYYY-MM-DD) and search over the last 30 days. */
  timeline: { date: string; monitorSearchId: number; count: number }[];
  threat: {
    buckets: { from: number; to: number; count: number }[];
    top: { matchId: number; monitorSearchId: number; score: number; reasons: string[]; post: Post }[];
  };
}

export async function fetchDashboard(monitorSearchIds: number[], signal?: AbortSignal): Promise<Dashboard> {
  const params = new URLSearchParams();
  if (monitorSearchIds.length > 0) params.set('monitorSearchIds', monitorSearchIds.join(','));
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return (await request<Dashboard>('GET', `${MONITOR}/dashboard${query}`, { signal })).data;
}
