import { describe, expect, it } from 'vitest';
import type { Match, Post } from '../api/monitor';
import { matchPoint } from './matchPoint';

function matchWith(post: Partial<Post>): Match {
  return {
    matchMeta: { matchId: 1, monitorSearchId: 1, canEdit: true, isFlagged: false, isRead: false, matchedTerms: [] },
    isDeleted: false,
    discoveredDate: 0,
    publishedDate: 0,
    monitorSearchName: 's',
    post: {
      id: 'p',
      storyId: 'p',
      provider: 'x',
      native_id: '1',
      content_type: 'social_media_post',
      published_at: '',
      discovered_at: '',
      entities: {},
      threat: { score: 0 },
      ...post,
    },
  };
}

describe('matchPoint', () => {
  it('prefers the geotag', () => {
    const point = matchPoint(
      matchWith({
        location: { lat: 48.85, lon: 2.35 },
        place_name: 'Paris',
        mentioned_locations: [{ name: 'Lyon', country_code: 'FR', point: { lat: 45.76, lon: 4.83 } }],
      }),
    );
    expect(point).toEqual({ lat: 48.85, lon: 2.35, exact: true, name: 'Paris' });
  });

  it('falls back to a mentioned place', () => {
    const point = matchPoint(
      matchWith({ mentioned_locations: [{ name: 'Lyon', country_code: 'FR', point: { lat: 45.76, lon: 4.83 } }] }),
    );
    expect(point).toEqual({ lat: 45.76, lon: 4.83, exact: false, name: 'Lyon' });
  });

  it('leaves mentioned places out when the user hides them', () => {
    const match = matchWith({
      mentioned_locations: [{ name: 'Lyon', country_code: 'FR', point: { lat: 45.76, lon: 4.83 } }],
    });
    expect(matchPoint(match, false)).toBeNull();
  });

  it('has none without a place', () => {
    expect(matchPoint(matchWith({}))).toBeNull();
  });
});
