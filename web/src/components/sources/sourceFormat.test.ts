import { describe, expect, it } from 'vitest';
import { configOf, fieldValues, formatAgo, formatSeconds, typeLabel } from './sourceFormat';

describe('source settings forms', () => {
  it('turns a saved config into fields and back, keeping the settings the form does not show', () => {
    const saved = { baseURL: 'https://social.example', timelines: ['public', 'tag:osint'], backoff: { initial: '1s' } };
    const values = fieldValues('mastodon', saved);
    expect(values).toEqual({ baseURL: 'https://social.example', timelines: 'public, tag:osint' });
    expect(configOf('mastodon', { ...values, timelines: 'public:local , ', token: ' ' }, saved)).toEqual({
      baseURL: 'https://social.example',
      timelines: ['public:local'],
      backoff: { initial: '1s' },
    });
  });

  it('labels types and durations', () => {
    expect(typeLabel('rss')).toBe('RSS or Atom feed');
    expect(typeLabel('reddit')).toBe('Reddit');
    expect(formatSeconds(42)).toBe('42 s');
    expect(formatSeconds(600)).toBe('10 min');
    expect(formatSeconds(7200)).toBe('2 h');
    expect(formatAgo(undefined)).toBe('never');
    expect(formatAgo(new Date(1_000_000).toISOString(), 1_060_000)).toBe('1 min ago');
  });
});
