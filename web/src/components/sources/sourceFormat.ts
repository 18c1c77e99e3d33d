import type { SourceState } from '../../api/sources';

/** Each known type's label; a type added later reads as its name. */
const typeLabels: Record<string, string> = {
  rss: 'RSS or Atom feed',
  mastodon: 'Mastodon',
  bluesky: 'Bluesky (Jetstream)',
  hackernews: 'Hacker News',
};

export function typeLabel(type: string): string {
  return typeLabels[type] ?? type.charAt(0).toUpperCase() + type.slice(1);
}

export const stateLabels: Record<
  SourceState,
  { label: string; color: 'success' | 'warning' | 'error' | 'default' | 'info' }
> = {
  ok: { label: 'OK', color: 'success' },
  degraded: { label: 'Degraded', color: 'warning' },
  failing: { label: 'Failing', color: 'error' },
  unreachable: { label: 'Unreachable', color: 'error' },
  disabled: { label: 'Disabled', color: 'default' },
  pending: { label: 'Starting', color: 'info' },
};

/** A duration in seconds as "45 s", "12 min", "3 h" or "2 d". */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/** How long ago an ISO time was, from now. */
export function formatAgo(iso: string | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  return `${formatSeconds(Math.max(0, (now - new Date(iso).getTime()) / 1000))} ago`;
}

/** A field of a type's settings form. */
export interface FieldSpec {
  key: string;
  label: string;
  helper?: string;
  required?: boolean;
  kind?: 'text' | 'list' | 'password' | 'select';
  options?: string[];
}

const interval: FieldSpec = {
  key: 'interval',
  label: 'Fetch every',
  helper: 'For example 30s, 5m or 1h; the type’s usual when empty.',
};

/** The settings forms of the known types; other types are edited as JSON. */
export const typeFields: Record<string, FieldSpec[]> = {
  rss: [
    {
      key: 'url',
      label: 'Feed address',
      required: true,
      helper: 'The address of an RSS or Atom feed (http or https).',
    },
    {
      key: 'provider',
      label: 'Provider',
      kind: 'select',
      options: ['news', 'blogs', 'youtube'],
      helper: 'What its posts count as.',
    },
    interval,
  ],
  mastodon: [
    { key: 'baseURL', label: 'Instance address', required: true, helper: 'For example https://mastodon.social.' },
    {
      key: 'timelines',
      label: 'Timelines',
      kind: 'list',
      helper: 'public, public:local or tag:NAME, separated by commas.',
    },
    {
      key: 'token',
      label: 'Access token',
      kind: 'password',
      helper: 'Needed by some instances, and to stream. A saved token is never shown: leave the dots to keep it.',
    },
    interval,
  ],
  bluesky: [
    { key: 'url', label: 'Jetstream address', helper: 'A wss:// address; Bluesky’s public Jetstream when empty.' },
  ],
  hackernews: [interval],
};

/** The form's values of a saved config: lists joined by commas. */
export function fieldValues(type: string, config: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of typeFields[type] ?? []) {
    const value = config[field.key];
    if (Array.isArray(value)) values[field.key] = value.join(', ');
    else if (typeof value === 'string') values[field.key] = value;
  }
  return values;
}

/** The config of a form: the saved settings the form does not show, then the fields filled in. */
export function configOf(type: string, values: Record<string, string>, base: Record<string, unknown> = {}) {
  const config: Record<string, unknown> = { ...base };
  for (const field of typeFields[type] ?? []) {
    const value = (values[field.key] ?? '').trim();
    delete config[field.key];
    if (value === '') continue;
    config[field.key] =
      field.kind === 'list'
        ? value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : value;
  }
  return config;
}
