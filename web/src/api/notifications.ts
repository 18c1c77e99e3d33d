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

export type DeliveryStatus = 'pending' | 'sent' | 'retrying' | 'failed';

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
