import { describe, expect, it } from 'vitest';
import { testMatch } from '../test/fixtures';
import { authorPath, postsByHour, postsByProvider } from './authorProfile';

const post = (provider: string, published_at: string, author = {}) =>
  testMatch(1, {}, { provider, published_at, ...author }).post;

describe('author profile', () => {
  it('links to the author by handle, else by name, and not without either', () => {
    expect(authorPath(post('x', '2026-11-20T10:00:00Z', { author_screen_name: 'ana_b', author_name: 'Ana' }))).toBe(
      '/beacon/author?name=ana_b',
    );
    expect(authorPath(post('x', '2026-11-20T10:00:00Z', { author_name: 'Ana B' }))).toBe('/beacon/author?name=Ana+B');
    expect(authorPath(post('x', '2026-11-20T10:00:00Z', { author_name: '', author_screen_name: '' }))).toBeNull();
  });

  it('counts posts by data source and by UTC hour', () => {
    const posts = [
      post('reddit', '2026-11-20T10:15:00Z'),
      post('twitter', '2026-11-20T10:45:00Z'),
      post('reddit', '2026-11-21T23:59:00Z'),
    ];
    expect(postsByProvider(posts)).toEqual([
      { provider: 'reddit', count: 2 },
      { provider: 'twitter', count: 1 },
    ]);
    const hours = postsByHour(posts);
    expect(hours).toHaveLength(24);
    expect([hours[10], hours[23], hours[0]]).toEqual([2, 1, 0]);
  });
});
