import { describe, expect, it } from 'vitest';
import type { Post } from '../api/monitor';
import { originOf } from './postOrigin';

const base: Post = {
  id: 'p1',
  storyId: 'p1',
  provider: 'news',
  native_id: '1',
  content_type: 'news_post',
  published_at: '2026-11-27T10:00:00Z',
  discovered_at: '2026-11-27T10:00:00Z',
  entities: {},
  threat: { score: 0 },
};

describe('originOf', () => {
  it.each([
    [{ kind: 'shared', name: 'gazette', type: 'rss' }, undefined, 'Shared source: gazette'],
    [{ kind: 'shared' }, undefined, 'Shared source'],
    [{ kind: 'source', name: 'beta-wire', type: 'rss' }, undefined, 'Your source: beta-wire'],
    [{ kind: 'ingest', name: 'nightly' }, 'nightly', 'Ingested: nightly'],
    [undefined, 'nightly', 'Ingested: nightly'],
    [undefined, undefined, 'Shared source'],
  ] as const)('origin %j with source %s reads %s', (origin, source, want) => {
    expect(originOf({ ...base, origin, source })).toBe(want);
  });
});
