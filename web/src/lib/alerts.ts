// Alert settings of a saved search (monitor-area.md sections 4, 5, 6 and 9), edited in the search
// builder and on the search page: intervals in seconds, the intervals each kind allows, which kinds
// a user is offered, the proximity rules, destinations and the user's e-mail as the default one.
// Every change keeps the setting in the list (off is interval 0, or a webhook without webhooks), so
// a list sent to the server turns off what the user turned off.
import type { NotificationDestination, NotificationSetting } from '../api/monitor';
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
const IMMEDIATE = { seconds: 0, label: 'Immediate' };

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

/** The interval a setting shows: a webhook is Immediate while it has a webhook, else Off. */
export function intervalLabel(setting: NotificationSetting | undefined): string {
  if (!setting) return OFF.label;
  if (setting.type === 'webhook') return setting.destinations.length > 0 ? IMMEDIATE.label : OFF.label;
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

/** Whether the setting delivers: a webhook with a webhook, another kind at an interval. */
export function isOn(setting: NotificationSetting | undefined): boolean {
  if (!setting) return false;
  return setting.type === 'webhook' ? setting.destinations.length > 0 : setting.interval > 0;
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

/** Destinations of a setting being switched on: its own, else the user's e-mail (section 4). */
function destinationsOf(current: NotificationSetting | undefined, email: string): NotificationDestination[] {
  if (current && current.destinations.length > 0) return current.destinations;
  return email ? [{ type: 'email', address: email }] : [];
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
): NotificationSetting[] {
  const current = alertOf(alerts, type) ?? blank(type);
  const destinations = interval > 0 ? destinationsOf(current, email) : current.destinations;
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
): { alerts: NotificationSetting[]; refused: boolean } {
  const current = alertOf(alerts, 'proximity') ?? blank('proximity');
  const refused = interval > 0 && (current.locationAssetIds ?? []).length === 0;
  if (refused) return { alerts: withSetting(alerts, { ...current, interval: 0 }), refused };
  const destinations = interval > 0 ? destinationsOf(current, email) : current.destinations;
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

export const INVALID_EMAIL = 'The provided email address is invalid';
export const INVALID_WEBHOOK = 'The webhook must be an http or https URL.';
export const KEEP_ONE_DESTINATION = 'Keep at least one destination while this alert is on.';

// The shape the server accepts too: one @, no spaces, a dot in the domain.
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isWebhookAddress(address: string): boolean {
  try {
    const url = new URL(address);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Webhooks go to the webhook kind; every other kind delivers by e-mail. */
export function destinationTypeOf(type: AlertKind): NotificationDestination['type'] {
  return type === 'webhook' ? 'webhook' : 'email';
}

export type DestinationChange = { alerts: NotificationSetting[]; error?: undefined } | { error: string };

/** The alerts with an address added to one kind, or why it cannot be (section 5). */
export function addDestination(alerts: NotificationSetting[], type: AlertKind, input: string): DestinationChange {
  const address = input.trim();
  const destinationType = destinationTypeOf(type);
  if (destinationType === 'email' && !EMAIL_ADDRESS.test(address)) return { error: INVALID_EMAIL };
  if (destinationType === 'webhook' && !isWebhookAddress(address)) return { error: INVALID_WEBHOOK };
  const current = alertOf(alerts, type) ?? blank(type);
  if (current.destinations.some((d) => d.address.toLowerCase() === address.toLowerCase()))
    return { error: `${address} is already a destination of this alert.` };
  const destinations = [...current.destinations, { type: destinationType, address }];
  return { alerts: withSetting(alerts, { ...current, destinations }) };
}

/** The alerts without one destination; an e-mail alert that is on keeps at least one. */
export function removeDestination(alerts: NotificationSetting[], type: AlertKind, address: string): DestinationChange {
  const current = alertOf(alerts, type);
  if (!current) return { alerts };
  const destinations = current.destinations.filter((d) => d.address !== address);
  if (type !== 'webhook' && current.interval > 0 && destinations.length === 0) return { error: KEEP_ONE_DESTINATION };
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
    };
  });
}
