import { describe, expect, it } from 'vitest';
import {
  emptyLocateSearch,
  locateFromLink,
  locateFromParams,
  locateParams,
  locateRanges,
  locateRequest,
  missingField,
  placeSearchPath,
  withLocateDates,
} from './locateSearch';

const BOX = 'POLYGON((4.7 45.7,4.9 45.7,4.9 45.8,4.7 45.8,4.7 45.7))';
const NOW = Date.UTC(2026, 10, 24);

describe('the Locate search in the URL', () => {
  it('round-trips every field', () => {
    const s = {
      ...emptyLocateSearch(),
      type: 'compound' as const,
      keywords: 'crane',
      author: 'Ana',
      address: 'Lyon',
      bounds: BOX,
      providers: ['twitter', 'reddit'],
      range: 'week' as const,
      media: 'images' as const,
      priority: 'elevated' as const,
      sort: 'followers' as const,
    };
    expect(locateFromParams(locateParams(s))).toEqual(s);
    expect(locateRequest(s).sort).toBe('followers');
    // Most recent is the default: an unknown or default order is left out.
    expect(locateFromParams(new URLSearchParams({ sort: 'recent' })).sort).toBeUndefined();
    expect(locateFromParams(new URLSearchParams({ sort: 'loudest' })).sort).toBeUndefined();
  });

  it('reads the builder’s link parameters, typed by the fields given', () => {
    const link = new URLSearchParams({
      address_bounds: BOX,
      keywords: 'crane',
      providers: 'twitter',
      author_query: '',
      boards: 'r/lyon',
      start_date: '1000',
      end_date: '2000',
      images_only: 'true',
      video_only: 'false',
      search_filters: '',
    });
    expect(locateFromLink(link)).toMatchObject({
      type: 'compound',
      keywords: 'crane',
      bounds: BOX,
      providers: ['twitter'],
      from: 1000,
      to: 2000,
      media: 'images',
      boards: ['r/lyon'],
    });
    expect(locateRequest(locateFromLink(link)).boards).toEqual(['r/lyon']);
    const kept = locateFromParams(locateParams(locateFromLink(link)));
    expect(kept.boards).toEqual(['r/lyon']);
    expect(locateFromLink(new URLSearchParams({ keywords: 'crane' })).boards).toBeUndefined();
    expect(locateFromLink(new URLSearchParams({ address_bounds: BOX })).type).toBe('location');
    expect(locateFromLink(new URLSearchParams({ author_query: 'ana' })).type).toBe('author');
  });
});

describe('filter lists', () => {
  it('reads the builder’s search_filters, keeps them in the address, and sends them as searchFilters', () => {
    const s = locateFromLink(new URLSearchParams({ keywords: 'crane', search_filters: '3, 4,3,x,-1' }));
    expect(s.filterLists).toEqual([3, 4]);
    expect(locateParams(s).get('filters')).toBe('3,4');
    expect(locateFromParams(locateParams(s)).filterLists).toEqual([3, 4]);
    expect(locateRequest(s).searchFilters).toEqual([3, 4]);
    const none = locateFromLink(new URLSearchParams({ keywords: 'crane', search_filters: '' }));
    expect(none.filterLists).toBeUndefined();
    expect(locateRequest(none).searchFilters).toBeUndefined();
  });
});

describe('a place a post names', () => {
  it('opens Locate on the area around it', () => {
    const path = placeSearchPath({ name: 'Lyon', point: { lat: 45.76, lon: 4.84 } });
    expect(path.startsWith('/locate?')).toBe(true);
    expect(locateFromParams(new URLSearchParams(path.slice('/locate?'.length)))).toEqual({
      ...emptyLocateSearch(),
      type: 'location',
      address: 'Lyon',
      bounds: 'POLYGON((4.79 45.71,4.89 45.71,4.89 45.81,4.79 45.81,4.79 45.71))',
    });
  });
});

describe('locateRequest', () => {
  it('sends only the fields of the type', () => {
    const s = { ...emptyLocateSearch(), keywords: 'crane', author: 'Ana', bounds: BOX };
    expect(locateRequest({ ...s, type: 'location' })).toEqual({ type: 'location', bounds: BOX });
    expect(locateRequest({ ...s, type: 'author' })).toEqual({ type: 'author', author: 'Ana' });
    expect(locateRequest({ ...s, type: 'compound' })).toEqual({
      type: 'compound',
      keywords: 'crane',
      author: 'Ana',
      bounds: BOX,
    });
  });

  it('keeps the date shortcut relative until sent, and prefers an explicit window', () => {
    const week = locateRequest({ ...emptyLocateSearch(), bounds: BOX, range: 'week' });
    expect(week.range).toBe('week');
    expect(withLocateDates(week, NOW)).toEqual({ type: 'location', bounds: BOX, from: NOW - 7 * 86_400_000 });
    expect(withLocateDates(locateRequest({ ...emptyLocateSearch(), range: 'day', from: 5 }), NOW).from).toBe(5);
  });

  it('says what a search lacks', () => {
    expect(missingField(emptyLocateSearch())).toBe('Choose a place or draw an area on the map.');
    expect(missingField({ ...emptyLocateSearch(), type: 'keyword', bounds: BOX })).toBe(
      'Enter keywords to search for.',
    );
    expect(missingField({ ...emptyLocateSearch(), type: 'compound', author: 'ana' })).toBeNull();
  });
});

describe('the date shortcuts', () => {
  it('offers the spans shorter than what the server keeps, and says how far "all" reaches', () => {
    const labels = (days: number) => locateRanges(days).map((r) => r.label);
    expect(labels(30)).toEqual(['All (last 30 days)', 'Last 24 hours', 'Last week']);
    expect(labels(90)).toEqual(['All (last 90 days)', 'Last 24 hours', 'Last week', 'Last month']);
    expect(labels(365)).toEqual(['All (last 365 days)', 'Last 24 hours', 'Last week', 'Last month', 'Last 3 months']);
  });

  it('resolves a month and three months when the request is sent', () => {
    const DAY = 86_400_000;
    const month = withLocateDates(locateRequest({ ...emptyLocateSearch(), bounds: BOX, range: 'month' }), NOW);
    expect(month.from).toBe(NOW - 30 * DAY);
    const quarter = withLocateDates(locateRequest({ ...emptyLocateSearch(), bounds: BOX, range: 'quarter' }), NOW);
    expect(quarter.from).toBe(NOW - 90 * DAY);
    expect(locateFromParams(new URLSearchParams({ range: 'quarter' })).range).toBe('quarter');
  });
});
