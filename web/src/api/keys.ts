// Every TanStack Query key of the app, one factory per domain. A key starts with its domain's
// prefix, so invalidating a shorter key (`monitorKeys.matches`) refreshes every longer one under it
// (each match list, the counts, the dashboard). Keys are only ever built here.
import type { BeaconRequest } from '../lib/beaconSearch';
import type { LocateQuery } from '../lib/locateSearch';
import type { AuditFilters } from './audit';
import type { SearchCategory } from './beacon';
import type { CaseFilter } from './cases';
import type { Product } from './members';
import type { BacktestRequest, MatchQuery } from './monitor';

export const sessionKeys = {
  current: ['session'] as const,
};

export const settingsKeys = {
  profile: ['settings', 'profile', 'current'] as const,
  twoStepState: ['settings', 'profile', 'state'] as const,
  organization: ['settings', 'organizations', 'current'] as const,
  invitations: (organizationId: number) => ['settings', 'organizations', organizationId, 'invitations'] as const,
  statistics: (organizationId: number, product: Product, of: 'organization' | 'members') =>
    ['settings', 'statistics', organizationId, product, of] as const,
  tokens: ['settings', 'tokens'] as const,
  sessions: ['settings', 'sessions'] as const,
  social: ['settings', 'social'] as const,
  socialProviders: ['settings', 'social', 'providers'] as const,
  socialAccounts: ['settings', 'social', 'accounts'] as const,
};

export const invitationKeys = {
  open: (token: string) => ['invitation', token] as const,
};

export const monitorKeys = {
  all: ['monitor'] as const,
  providers: ['monitor', 'providers'] as const,
  groups: ['monitor', 'groups'] as const,
  groupsMini: ['monitor', 'groups', 'mini'] as const,
  groupList: ['monitor', 'groups', 'list'] as const,
  group: (id: number) => ['monitor', 'groups', 'one', id] as const,
  searches: ['monitor', 'searches'] as const,
  searchList: ['monitor', 'searches', 'list'] as const,
  search: (id: number) => ['monitor', 'searches', 'one', id] as const,
  notificationSettings: (searchId: number) => [...monitorKeys.search(searchId), 'notification-settings'] as const,
  deliveries: (searchId: number) => [...monitorKeys.search(searchId), 'deliveries'] as const,
  spikes: (searchId: number) => [...monitorKeys.search(searchId), 'spikes'] as const,
  /** Emerging terms among the user's matches: under counts, so new matches refresh them. */
  trends: ['monitor', 'matches', 'counts', 'trends'] as const,
  alertQuiet: (searchId: number) => [...monitorKeys.search(searchId), 'alert-quiet'] as const,
  alertChannels: ['monitor', 'alert-channels'] as const,
  matches: ['monitor', 'matches'] as const,
  matchLists: ['monitor', 'matches', 'list'] as const,
  matchList: (query: MatchQuery) => [...monitorKeys.matchLists, query] as const,
  /** The inbox grouped by story: under matches, so an action on matches refreshes it too. */
  storyLists: ['monitor', 'matches', 'stories'] as const,
  storyList: (query: MatchQuery) => ['monitor', 'matches', 'stories', query] as const,
  /** A story card's matches: a match list, so actions on matches and live matches reach it. */
  storyMatches: (query: MatchQuery, storyId: string) => monitorKeys.matchList({ ...query, storyId }),
  counts: ['monitor', 'matches', 'counts'] as const,
  countsBySearch: ['monitor', 'matches', 'counts', 'list'] as const,
  countsOf: (ids: number[]) => [...monitorKeys.countsBySearch, ids] as const,
  /** Every dashboard: under counts, so what refreshes the counts refreshes them too. */
  dashboards: ['monitor', 'matches', 'counts', 'dashboard'] as const,
  dashboard: (ids: number[]) => [...monitorKeys.dashboards, ids] as const,
  /** How many of a list's matches arrived after it was read (waiting behind "Show them"). */
  waitingCounts: ['monitor', 'matches', 'counts', 'waiting'] as const,
  waiting: (query: MatchQuery, since: number) => [...monitorKeys.waitingCounts, query, since] as const,
  thread: (postId: string) => ['monitor', 'thread', postId] as const,
  backtest: (draft: BacktestRequest) => ['monitor', 'backtest', draft] as const,
};

export const caseKeys = {
  all: ['cases'] as const,
  list: (filter: CaseFilter) => ['cases', 'list', filter] as const,
  detail: (id: number) => ['cases', 'detail', id] as const,
  evidence: (id: string) => ['cases', 'evidence', id] as const,
};

export const storyKeys = {
  all: ['stories'] as const,
  /** A story with its posts, page after page (the story page). */
  posts: (id: string) => ['stories', id, 'posts'] as const,
  /** A story's counts and timeline without its posts (an inbox story card). */
};

export const evidenceKeys = {
  all: ['evidence'] as const,
  record: (id: string) => ['evidence', id] as const,
  auto: (searchId: number) => ['evidence', 'auto', searchId] as const,
};

export const assetKeys = {
  all: ['assets'] as const,
};

export const trendKeys = {
  beacon: ['beacon', 'trending'] as const,
};

export const dashboardKeys = {
  layout: ['dashboard-layout'] as const,
};

export const filterListKeys = {
  all: ['filter-lists'] as const,
  details: ['filter-lists', 'details'] as const,
  one: (id: number) => ['filter-lists', 'one', id] as const,
  prebuilt: ['prebuilt-filter-lists'] as const,
  objects: (q: string) => ['object-detection-typeahead', q] as const,
};

export const configurationKeys = {
  all: ['configurations'] as const,
  /** Every place at once, for the builder's and the alerts' pickers. */
  every: ['configurations', 'all'] as const,
  page: (page: number, q: string) => ['configurations', 'page', page, q] as const,
  place: (address: string) => ['configurations', 'place', address] as const,
};

export const beaconKeys = {
  all: ['beacon'] as const,
  search: (category: SearchCategory, request: BeaconRequest) => ['beacon', 'search', category, request] as const,
  analytics: (category: SearchCategory, request: BeaconRequest) => ['beacon', 'analytics', category, request] as const,
  author: (name: string) => ['beacon', 'author', name] as const,
  flags: ['beacon', 'flags'] as const,
  marks: ['beacon', 'marks'] as const,
  marksOf: (postIds: string[]) => ['beacon', 'marks', postIds] as const,
  history: ['beacon', 'history'] as const,
};

export const locateKeys = {
  all: ['locate'] as const,
  search: (query: LocateQuery) => ['locate', 'search', query] as const,
  analytics: (query: LocateQuery) => ['locate', 'analytics', query] as const,
};

export const translateKeys = {
  post: (postId: string) => ['translate', 'post', postId] as const,
  postTo: (postId: string, target: string) => [...translateKeys.post(postId), target] as const,
  keywords: ['translate', 'keyword'] as const,
  keyword: (keyword: string, target: string) => [...translateKeys.keywords, keyword, target] as const,
};

export const assistantKeys = {
  analysis: (postId: string) => ['assistant', 'analysis', postId] as const,
};

export const liveKeys = {
  config: ['live', 'config'] as const,
};

export const exportKeys = {
  all: ['exports'] as const,
};

export const announcementKeys = {
  all: ['announcements'] as const,
};

export const sourceKeys = {
  all: ['sources'] as const,
  list: ['sources', 'list'] as const,
  types: ['sources', 'types'] as const,
  health: ['sources', 'health'] as const,
};

export const tenantKeys = {
  organizations: ['tenant', 'organizations'] as const,
  users: ['tenant', 'users'] as const,
  tokens: ['tenant', 'tokens'] as const,
  auditLogs: (filters: AuditFilters, page: number) => ['tenant', 'audit-logs', filters, page] as const,
};

export const mapKeys = {
  /** The base map the server offers: it changes only when the server restarts. */
  base: ['map', 'base'] as const,
};

export const geocodeKeys = {
  /** The place that names a point; the gazetteer never changes while the server runs. */
  reverse: (lat: number, lon: number) => ['geocode', 'reverse', lat, lon] as const,
};
