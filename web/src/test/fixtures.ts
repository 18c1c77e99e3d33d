import type { AlertChannel } from '../api/notifications';
import type { Group, Match, MonitorSearch, Post, Provider } from '../api/monitor';
import type { Profile } from '../api/settings';
import alertChannelsJSON from './alertChannels.json?raw';

// The alert channels as the server describes them, with SMTP and without
// (`make contracts` writes the file from the Go channels; internal/contracts checks it is current).
const describedChannels = JSON.parse(alertChannelsJSON) as {
  withMail: AlertChannel[];
  withoutMail: AlertChannel[];
};
export const testAlertChannels = describedChannels.withMail;
export const testAlertChannelsWithoutMail = describedChannels.withoutMail;

/** A signed-in member of the Default organization; override what a test is about. */
export function testProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 1,
    name: 'Ada Analyst',
    email: 'ada@example.test',
    username: 'ada',
    is_mfa_enabled: false,
    is_translation_enrichment_enabled: true,
    is_mentioned_locations_enrichment_enabled: true,
    is_inbox_streaming_enabled: true,
    display_theme: 'light',
    media_sensitivity: 'blur',
    is_tenant_admin: false,
    role: 'member',
    acl: { beacon: true, pro: true, enterprise: false, locate_api: false, rfi: false, intel_reports: false },
    organization: {
      id: 1,
      name: 'Default',
      crm_id: '',
      is_uspi_compliant: false,
      is_moose_mind_enabled: false,
      feature_flags: { beacon_sunset: false, share_searches: false },
      monthly_data_limit: 0,
      asset_limit: 0,
    },
    tenant: { id: 1, name: 'default', logout: true, support_email: 'support@example.test', is_ecs: false },
    social_accounts: [],
    emailDelivery: true,
    translation: false,
    retentionDays: 30,
    portals: { compliance: false, rfi: false, intel_reports: false },
    ...overrides,
  };
}

export function testProvider(name: string, overrides: Partial<Provider> = {}): Provider {
  return {
    name,
    displayName: name[0]?.toUpperCase() + name.slice(1),
    enabled: true,
    beaconFeature: false,
    searchFeatures: { location: true, keyword: true, author: true, boardName: false },
    region: 'global',
    kind: 'social',
    color: '#336699',
    icon: name,
    supersetOf: [],
    category: 'social',
    ...overrides,
  };
}

/** A small catalogue with a superset provider, the excluded photo network and a specialty source. */
export const testProviders: Provider[] = [
  testProvider('twitter', { displayName: 'X' }),
  testProvider('gnip', { displayName: 'X Firehose', supersetOf: ['twitter'] }),
  testProvider('reddit', { kind: 'forum' }),
  testProvider('flickr', { kind: 'imageSharing' }),
  testProvider('infectedhostdata', { displayName: 'Infected Host Data', enabled: false }),
  testProvider('gab', { region: 'northAmerica' }),
  testProvider('vk', { displayName: 'VK', region: 'europe' }),
];

export function testGroup(id: number, overrides: Partial<Group> = {}): Group {
  return {
    id,
    name: `Group ${id}`,
    privacy: 'private',
    isSavedSearch: false,
    canEdit: true,
    isFavourite: false,
    canManageSharing: true,
    owner: { id: 1, email: 'ada@example.test', username: 'ada', role: 'owner' },
    sharedUsers: [],
    searchCount: 0,
    createdAt: 1_795_260_000,
    updatedAt: 1_795_260_000,
    ...overrides,
  };
}

export function testSearch(id: number, overrides: Partial<MonitorSearch> = {}): MonitorSearch {
  return {
    id,
    savedSearchId: id,
    value: `Search ${id}`,
    groupId: 3,
    enabled: true,
    favourite: false,
    hidden: false,
    status: 'active',
    canEdit: true,
    canManageSharing: true,
    owner: { id: 1, email: 'ada@example.test', username: 'ada', role: 'owner' },
    gnipLowerLimitExceeded: false,
    gnipUpperLimitExceeded: false,
    streamingLowerLimitExceeded: false,
    streamingUpperLimitExceeded: false,
    gnipOverrideUntil: null,
    streamingOverrideUntil: null,
    start_at: null,
    end_at: null,
    polygons: [],
    sharedUsers: [],
    filterLists: [],
    notificationSettings: [],
    backfill: null,
    search: {
      address: '',
      address_bounds: '',
      author_id: '',
      author_query: '',
      query: 'bridge',
      keywords: ['bridge'],
      summary: '(bridge)',
      providers: [{ name: 'reddit' }],
      images_only: false,
      video_only: false,
      board_names: [],
    },
    createdAt: 1_795_260_000,
    updatedAt: 1_795_260_000,
    ...overrides,
  };
}

export function testMatch(matchId: number, overrides: Partial<Match> = {}, post: Partial<Post> = {}): Match {
  return {
    matchMeta: { matchId, monitorSearchId: 7, canEdit: true, isFlagged: false, isRead: false, matchedTerms: [] },
    isDeleted: false,
    discoveredDate: 1_795_260_000,
    publishedDate: 1_795_259_000,
    monitorSearchName: 'Bridges',
    post: {
      id: `post-${matchId}`,
      storyId: `post-${matchId}`,
      provider: 'reddit',
      native_id: String(matchId),
      content_type: 'thread_post',
      author_name: `Author ${matchId}`,
      content_text: `The bridge is closed (${matchId})`,
      published_at: '2026-11-20T10:00:00Z',
      discovered_at: '2026-11-20T10:01:00Z',
      entities: {},
      threat: { score: 0 },
      ...post,
    },
    ...overrides,
  };
}
