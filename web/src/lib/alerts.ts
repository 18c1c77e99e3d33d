// Alert settings the search builder offers (monitor-area.md sections 4, 5, 6 and 9): intervals in
// seconds, the intervals each kind allows, which kinds a user is offered, the proximity rules and
// the user's e-mail as the default destination.
import type { NotificationSetting } from '../api/monitor';
import type { Profile } from '../api/settings';

export type AlertKind = NotificationSetting['type'];

/**
 * Most locations one proximity alert may watch. The spec leaves the value out; 10 keeps an alert
 * readable and its matching cheap.
 */
export const MAX_PROXIMITY_LOCATIONS = 10;

const OFF = { seconds: 0, label: 'Off' };
const EVERY_5_MINUTES = { seconds: 300, label: 'Every 5 minutes' };
const EVERY_30_MINUTES = { seconds: 1800, label: 'Every 30 minutes' };
const EVERY_60_MINUTES = { seconds: 3600, label: 'Every 60 minutes' };
const DAILY = { seconds: 86400, label: 'Daily' };

export const ALERT_KINDS: { type: AlertKind; label: string; intervals: { seconds: number; label: string }[] }[] = [
  {
    type: 'batch',
    label: 'E-mail alerts',
    intervals: [OFF, { seconds: 60, label: 'Every minute' }, EVERY_5_MINUTES, EVERY_30_MINUTES, EVERY_60_MINUTES],
  },
  { type: 'digest', label: 'E-mail digest', intervals: [OFF, DAILY, { seconds: 604800, label: 'Weekly' }] },
  {
    type: 'proximity',
    label: 'Proximity alerts',
    intervals: [OFF, EVERY_5_MINUTES, EVERY_30_MINUTES, EVERY_60_MINUTES],
  },
  { type: 'ai_summary', label: 'AI summary', intervals: [OFF, DAILY] },
  { type: 'webhook', label: 'Webhook', intervals: [] },
];

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

/** Destinations of a setting: its own, else the user's e-mail when there is one (section 4). */
function destinationsOf(current: NotificationSetting | undefined, email: string): NotificationSetting['destinations'] {
  if (current && current.destinations.length > 0) return current.destinations;
  return email ? [{ type: 'email', address: email }] : [];
}

/**
 * The alerts with one kind changed. An e-mail kind set to Off is dropped, and one switched on
 * goes to destination (the user's e-mail) unless it already has destinations. A webhook is its
 * address, delivered immediately; an empty address drops it. Proximity has its own rules:
 * see setProximityInterval and setProximityLocations.
 */
export function setAlert(
  alerts: NotificationSetting[],
  type: Exclude<AlertKind, 'proximity'>,
  interval: number,
  destination: string,
): NotificationSetting[] {
  const others = alerts.filter((a) => a.type !== type);
  if (type === 'webhook') {
    const address = destination.trim();
    return address === '' ? others : [...others, { type, interval: 0, destinations: [{ type: 'webhook', address }] }];
  }
  if (interval === 0) return others;
  return [...others, { type, interval, destinations: destinationsOf(alertOf(alerts, type), destination) }];
}

/**
 * The proximity alert at a new interval. Switching it on without locations is refused: the
 * alert stays off and refused is true so the caller can say why.
 */
export function setProximityInterval(
  alerts: NotificationSetting[],
  interval: number,
  email: string,
): { alerts: NotificationSetting[]; refused: boolean } {
  const current = alertOf(alerts, 'proximity');
  const locations = current?.locationAssetIds ?? [];
  const refused = interval > 0 && locations.length === 0;
  return { alerts: withProximity(alerts, refused ? 0 : interval, locations, email), refused };
}

/** The proximity alert watching these locations; an empty set forces it off. */
export function setProximityLocations(
  alerts: NotificationSetting[],
  locationAssetIds: string[],
  email: string,
): NotificationSetting[] {
  const interval = locationAssetIds.length === 0 ? 0 : (alertOf(alerts, 'proximity')?.interval ?? 0);
  return withProximity(alerts, interval, [...new Set(locationAssetIds)], email);
}

// Chosen locations are kept while the alert is off, so the user can pick them before an interval.
function withProximity(
  alerts: NotificationSetting[],
  interval: number,
  locationAssetIds: string[],
  email: string,
): NotificationSetting[] {
  const others = alerts.filter((a) => a.type !== 'proximity');
  if (interval === 0 && locationAssetIds.length === 0) return others;
  const destinations = destinationsOf(alertOf(alerts, 'proximity'), email);
  return [...others, { type: 'proximity', interval, destinations, locationAssetIds }];
}

/** Whether a location selection may be applied to a proximity alert. */
export function canApplyProximityLocations(selected: number, available: number): boolean {
  return available > 0 && selected <= MAX_PROXIMITY_LOCATIONS;
}

/** Whether any alert will fire: a webhook, or another kind at an interval other than Off. */
export function hasActiveAlerts(alerts: NotificationSetting[]): boolean {
  return alerts.some((a) => a.type === 'webhook' || a.interval > 0);
}
