// A saved search's alerts: its notification settings, a test delivery to one destination, and
// the history of what was delivered (docs/monitor-api.md, issue #13).
import type { AlertChannel } from './contracts.gen';
import type { NotificationDestination, NotificationSetting } from './monitor';
import { request } from './transport';

const MONITOR = '/api/v1/monitor';

export interface NotificationSettings {
  /** Every type the user may use, in the order batch, digest, webhook, proximity, ai_summary. */
  settings: NotificationSetting[];
  canEdit: boolean;
}

// One way alerts reach people, as this server describes it (GET /api/v1/monitor/alert-channels):
// generated from the Go channel's description (contracts.gen.ts), so its rules are the server's.
export type { AlertChannel };

export async function getAlertChannels(signal?: AbortSignal): Promise<AlertChannel[]> {
  return (await request<AlertChannel[]>('GET', `${MONITOR}/alert-channels`, { signal })).data;
}

export type DeliveryStatus = 'pending' | 'sent' | 'retrying' | 'failed' | 'skipped';

/** Why a delivery was skipped: its story was told of already, or the search was snoozed, the story muted, the flood guard reached. */
export type SkipReason = 'grouped' | 'snoozed' | 'muted' | 'held';

export interface Delivery {
  id: string;
  type: NotificationSetting['type'];
  destination: NotificationDestination;
  matchCount: number;
  status: DeliveryStatus;
  attempts: number;
  /** Unix seconds; null when no further attempt is planned. */
  nextAttemptAt: number | null;
  lastError: string;
  createdAt: number;
  sentAt: number | null;
  /** matches (new matches), story (a story's first notice or an escalation) or flood (the flood guard's notice). */
  kind: 'matches' | 'story' | 'flood';
  storyId: string;
  storyLevel: number;
  /** Why a story notice was sent: first_match, or the escalation's reasons, comma-separated (posts_tripled, more_providers, more_languages, threat_high). */
  escalation: string;
  /** Why a skipped delivery was not sent; '' for the others. */
  skipped: SkipReason | '';
  note: string;
}

/** A search's snoozed alerts and muted stories (docs/monitor-api.md, "Snooze and mute"). */
export interface AlertQuiet {
  /** Unix seconds; null when not snoozed. */
  snoozedUntil: number | null;
  mutedStories: { storyId: string; mutedBy: number; mutedAt: number }[];
}

/** The snooze lengths the server offers. */
export type SnoozeLength = '1h' | '8h' | '24h' | '7d';

export async function getAlertQuiet(searchId: number, signal?: AbortSignal): Promise<AlertQuiet> {
  return (await request<AlertQuiet>('GET', `${MONITOR}/searches/${searchId}/alert-quiet`, { signal })).data;
}

/** Snoozes the search's alerts for a length or until a time (Unix seconds). */
export async function snoozeAlerts(
  searchId: number,
  until: { for: SnoozeLength } | { until: number },
): Promise<AlertQuiet> {
  return (await request<AlertQuiet>('PUT', `${MONITOR}/searches/${searchId}/snooze`, { body: until })).data;
}

export async function wakeAlerts(searchId: number): Promise<AlertQuiet> {
  return (await request<AlertQuiet>('DELETE', `${MONITOR}/searches/${searchId}/snooze`)).data;
}

/** Mutes (or unmutes) a story in the search's alerts. */
export async function muteStory(searchId: number, storyId: string, mute: boolean): Promise<AlertQuiet> {
  const path = `${MONITOR}/searches/${searchId}/muted-stories/${encodeURIComponent(storyId)}`;
  return (await request<AlertQuiet>(mute ? 'PUT' : 'DELETE', path)).data;
}

function settingsOf(reply: { data: NotificationSetting[]; meta: unknown }): NotificationSettings {
  const meta = reply.meta as { canEdit?: boolean } | undefined;
  return { settings: reply.data, canEdit: meta?.canEdit === true };
}

export async function getNotificationSettings(searchId: number, signal?: AbortSignal): Promise<NotificationSettings> {
  return settingsOf(
    await request<NotificationSetting[]>('GET', `${MONITOR}/searches/${searchId}/notification-settings`, { signal }),
  );
}

/** Replaces the settings of the types sent; the reply is every setting as stored. */
export async function saveNotificationSettings(
  searchId: number,
  settings: NotificationSetting[],
): Promise<NotificationSettings> {
  return settingsOf(
    await request<NotificationSetting[]>('PUT', `${MONITOR}/searches/${searchId}/notification-settings`, {
      body: settings,
    }),
  );
}

/** Sends a test message to one destination; fails with the server's reason when it cannot. */
export async function sendTestNotification(searchId: number, destination: NotificationDestination): Promise<void> {
  await request<{ delivered: boolean }>('POST', `${MONITOR}/searches/${searchId}/notification-settings/test`, {
    body: { destination },
  });
}

/** The search's deliveries, newest first, at most 100. */
export async function getDeliveries(searchId: number, signal?: AbortSignal): Promise<Delivery[]> {
  return (await request<Delivery[]>('GET', `${MONITOR}/searches/${searchId}/deliveries`, { signal })).data;
}
