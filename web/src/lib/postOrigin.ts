import type { Post } from '../api/monitor';

/**
 * Where a post came from, in words for its card: a shared source, one of the reader's own
 * sources, or an ingest token. Posts stored before origins were recorded came from a shared
 * source, or from ingest when they name the token that pushed them.
 */
export function originOf(post: Post): string {
  const origin = post.origin ?? (post.source ? { kind: 'ingest' as const, name: post.source } : { kind: 'shared' as const });
  switch (origin.kind) {
    case 'source':
      return origin.name ? `Your source: ${origin.name}` : 'Your source';
    case 'ingest':
      return origin.name ? `Ingested: ${origin.name}` : 'Ingested';
    default:
      return origin.name ? `Shared source: ${origin.name}` : 'Shared source';
  }
}
