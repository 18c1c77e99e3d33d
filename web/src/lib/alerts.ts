// Alert settings of a saved search (monitor-area.md sections 4, 5, 6 and 9), edited in the search
// builder and on the search page: intervals in seconds, the intervals each kind allows, which kinds
// a user is offered, the proximity rules, destinations and the user's e-mail as the default one.
// Every change keeps the setting in the list (off is interval 0, or an immediate kind without
// destinations), so a list sent to the server turns off what the user turned off. What a
// destination is, how it is checked and whether it can be used come from the server's channels
// (GET /api/v1/monitor/alert-channels), never from a switch here.
import {
  AI_SUMMARY_ALERT_INTERVALS,
  SPIKE_ALERT_INTERVALS,
  BATCH_ALERT_INTERVALS,
  DIGEST_ALERT_INTERVALS,
  MAX_PROXIMITY_LOCATIONS,
  PROXIMITY_ALERT_INTERVALS,
} from '../api/contracts.gen';
import type { AlertGrouping, NotificationDestination, NotificationSetting } from '../api/monitor';
import type { AlertChannel, Delivery } from '../api/notifications';
import type { Profile } from '../api/settings';

export type AlertKind = NotificationSetting['type'];

export { MAX_PROXIMITY_LOCATIONS };

/** What each interval (seconds) is called in the menus; which intervals a kind offers is the server's. */
const INTERVAL_LABELS: Record<number, string> = {
  0: 'Off',
  60: 'Every minute',
  300: 'Every 5 minutes',
  1800: 'Every 30 minutes',
  3600: 'Every 60 minutes',
  86400: 'Daily',
  604800: 'Weekly',
};
const OFF = { seconds: 0, label: 'Off' };
const IMMEDIATE = { seconds: 0, label: 'Immediate' };

/** An interval's menu label; an interval the labels do not know is written out, never hidden. */
export function intervalName(seconds: number): string {
  return INTERVAL_LABELS[seconds] ?? `Every ${seconds} seconds`;
}

function menu(seconds: readonly number[]): { seconds: number; label: string }[] {
  return seconds.map((s) => ({ seconds: s, label: intervalName(s) }));
}

/** Kinds without intervals are immediate: on while they have a destination. */
export const ALERT_KINDS: { type: AlertKind; label: string; intervals: { seconds: number; label: string }[] }[] = [
  { type: 'batch', label: 'E-mail alerts', intervals: menu(BATCH_ALERT_INTERVALS) },
  { type: 'digest', label: 'E-mail digest', intervals: menu(DIGEST_ALERT_INTERVALS) },
  { type: 'proximity', label: 'Proximity alerts', intervals: menu(PROXIMITY_ALERT_INTERVALS) },
  { type: 'ai_summary', label: 'AI summary', intervals: menu(AI_SUMMARY_ALERT_INTERVALS) },
  { type: 'spike', label: 'Spike alerts', intervals: SPIKE_ALERT_INTERVALS.map((s) => (s === 0 ? OFF : { seconds: s, label: 'On' })) },
  { type: 'webhook', label: 'Webhook', intervals: [] },
];

/** Whether a kind sends as soon as matches arrive (it has no intervals to choose). */
export function isImmediate(type: AlertKind): boolean {
  return ALERT_KINDS.find((k) => k.type === type)?.intervals.length === 0;
}

/** The interval a setting shows: an immediate kind is Immediate while it has a destination, else Off. */
export function intervalLabel(setting: NotificationSetting | undefined): string {
  if (!setting) return OFF.label;
  if (isImmediate(setting.type)) return setting.destinations.length > 0 ? IMMEDIATE.label : OFF.label;
  const kind = ALERT_KINDS.find((k) => k.type === setting.type);
  return kind?.intervals.find((i) => i.seconds === setting.interval)?.label ?? OFF.label;
}

type AlertAudience = {
  organization: Pick<Profile['organization'], 'feature_flags' | 'is_moose_mind_enabled'>;
  tenant: Pick<Profile['tenant'], 'is_ecs'>;
};

/** Whether the user is offered this kind of alert (section 6). */
export function offersAlert(profile: AlertAudience, type: AlertKind): boolean {
  const flags = profile.organization.feature_flags;
  if (type === 'proximity') return flags.proximity_notifications === true && !profile.tenant.is_ecs;
  if (type === 'ai_summary')
    return flags.ai_summary_notifications === true && profile.organization.is_moose_mind_enabled;
  return true;
}

export function alertOf(alerts: NotificationSetting[], type: AlertKind): NotificationSetting | undefined {
  return alerts.find((a) => a.type === type);
}

/** Whether the setting delivers: an immediate kind with a destination, another kind at an interval. */
export function isOn(setting: NotificationSetting | undefined): boolean {
  if (!setting) return false;
  return isImmediate(setting.type) ? setting.destinations.length > 0 : setting.interval > 0;
}

/** The channel that carries a kind's destinations, as the server describes it. */
export function channelOf(channels: AlertChannel[], type: AlertKind): AlertChannel | undefined {
  return channels.find((c) => c.alertTypes.includes(type));
}

// The list with one setting replaced where it stood, or added at the end.
function withSetting(alerts: NotificationSetting[], setting: NotificationSetting): NotificationSetting[] {
  return alerts.some((a) => a.type === setting.type)
    ? alerts.map((a) => (a.type === setting.type ? setting : a))
    : [...alerts, setting];
}

function blank(type: AlertKind): NotificationSetting {
  return { type, interval: 0, destinations: [] };
}

/**
 * Destinations of a setting being switched on: its own, else the user's e-mail where its channel
 * takes that by default (section 4).
 */
function destinationsOf(
  current: NotificationSetting,
  email: string,
  channels: AlertChannel[],
): NotificationDestination[] {
  if (current.destinations.length > 0) return current.destinations;
  const channel = channelOf(channels, current.type);
  return email && channel?.defaultsToUserEmail ? [{ type: channel.name, address: email }] : [];
}

/**
 * The alerts with one e-mail kind at a new interval. Switched on, it goes to the user's e-mail
 * unless it has destinations already; switched off, it keeps them for next time.
 */
export function setAlertInterval(
  alerts: NotificationSetting[],
  type: Exclude<AlertKind, 'proximity' | 'webhook'>,
  interval: number,
  email: string,
  channels: AlertChannel[],
): NotificationSetting[] {
  const current = alertOf(alerts, type) ?? blank(type);
  const destinations = interval > 0 ? destinationsOf(current, email, channels) : current.destinations;
  return withSetting(alerts, { ...current, interval, destinations });
}

/**
 * The proximity alert at a new interval. Switching it on without locations is refused: the
 * alert stays off and refused is true so the caller can say why.
 */
export function setProximityInterval(
  alerts: NotificationSetting[],
  interval: number,
  email: string,
  channels: AlertChannel[],
): { alerts: NotificationSetting[]; refused: boolean } {
  const current = alertOf(alerts, 'proximity') ?? blank('proximity');
  const refused = interval > 0 && (current.locationAssetIds ?? []).length === 0;
  if (refused) return { alerts: withSetting(alerts, { ...current, interval: 0 }), refused };
  const destinations = interval > 0 ? destinationsOf(current, email, channels) : current.destinations;
  return { alerts: withSetting(alerts, { ...current, interval, destinations }), refused };
}

/**
 * The proximity alert watching these locations; an empty set forces it off. Locations may be
 * chosen while it is off, before an interval.
 */
export function setProximityLocations(
  alerts: NotificationSetting[],
  locationAssetIds: string[],
): NotificationSetting[] {
  const current = alertOf(alerts, 'proximity') ?? blank('proximity');
  const interval = locationAssetIds.length === 0 ? 0 : current.interval;
  return withSetting(alerts, { ...current, interval, locationAssetIds: [...new Set(locationAssetIds)] });
}

/** Whether a location selection may be applied to a proximity alert. */
export function canApplyProximityLocations(selected: number, available: number): boolean {
  return available > 0 && selected <= MAX_PROXIMITY_LOCATIONS;
}

/** Whether any alert will fire. */
export function hasActiveAlerts(alerts: NotificationSetting[]): boolean {
  return alerts.some(isOn);
}

export const KEEP_ONE_DESTINATION = 'Keep at least one destination while this alert is on.';
export const NO_CHANNEL = 'This server has no channel for this alert.';

export type DestinationChange = { alerts: NotificationSetting[]; error?: undefined } | { error: string };

/**
 * The alerts with an address added to one kind, or why it cannot be (section 5): the channel's
 * own rule and messages, which the server applies too.
 */
export function addDestination(
  alerts: NotificationSetting[],
  type: AlertKind,
  input: string,
  channels: AlertChannel[],
): DestinationChange {
  const channel = channelOf(channels, type);
  if (!channel) return { error: NO_CHANNEL };
  const address = input.trim();
  if (!new RegExp(channel.pattern, 'i').test(address)) return { error: channel.invalidMessage };
  const current = alertOf(alerts, type) ?? blank(type);
  if (current.destinations.some((d) => d.address.toLowerCase() === address.toLowerCase()))
    return { error: channel.duplicateMessage };
  const destinations = [...current.destinations, { type: channel.name, address }];
  return { alerts: withSetting(alerts, { ...current, destinations }) };
}

/** The alerts without one destination; a kind on at an interval keeps at least one. */
export function removeDestination(alerts: NotificationSetting[], type: AlertKind, address: string): DestinationChange {
  const current = alertOf(alerts, type);
  if (!current) return { alerts };
  const destinations = current.destinations.filter((d) => d.address !== address);
  if (!isImmediate(type) && current.interval > 0 && destinations.length === 0) return { error: KEEP_ONE_DESTINATION };
  return { alerts: withSetting(alerts, { ...current, destinations }) };
}

/**
 * What a page sends to save: every type the server listed, as the user left it, so a type
 * switched off is sent off rather than left out.
 */
export function settingsToSave(stored: NotificationSetting[], draft: NotificationSetting[]): NotificationSetting[] {
  return stored.map(({ type }) => {
    const setting = alertOf(draft, type) ?? blank(type);
    return {
      type,
      interval: setting.interval,
      destinations: setting.destinations,
      locationAssetIds: setting.locationAssetIds ?? [],
      ...(setting.grouping ? { grouping: setting.grouping } : {}),
    };
  });
}

/** The alerts with one kind's grouping changed. */
export function setAlertGrouping(
  alerts: NotificationSetting[],
  type: AlertKind,
  grouping: AlertGrouping,
): NotificationSetting[] {
  return withSetting(alerts, { ...(alertOf(alerts, type) ?? blank(type)), grouping });
}

/** The groupings as the alerts panel offers them. */
export const GROUPINGS: { value: AlertGrouping; label: string }[] = [
  { value: 'story', label: 'Once per story, again when it escalates' },
  { value: 'post', label: 'Every new match' },
];

const ESCALATION: Record<string, string> = {
  first_match: 'the story first matched',
  posts_tripled: 'its post count tripled',
  more_providers: 'it reached 3 more sources',
  more_languages: 'it reached 2 more languages',
  threat_high: 'its threat rose to high',
};

/** What a delivery was and why: a story notice and its reason, the flood guard's notice, or why it was not sent. */
export function deliveryWhy(d: Delivery): string {
  if (d.status === 'skipped') return d.note;
  if (d.kind === 'story') {
    // An escalation names every reason that held, comma-separated ("posts_tripled,more_providers").
    const why = d.escalation.split(',').map((reason) => ESCALATION[reason] ?? reason);
    return `Story ${d.storyId}: ${why.join('; ')}`;
  }
  if (d.kind === 'flood') return d.note || 'The flood guard held the search’s next alerts back.';
  return 'New matches';
}
