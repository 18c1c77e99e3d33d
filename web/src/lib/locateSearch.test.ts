import { describe, expect, it } from 'vitest';
import {
  emptyLocateSearch,
  locateFromLink,
  locateFromParams,
  locateParams,
  locateRequest,
  missingField,
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
    };
    expect(locateFromParams(locateParams(s))).toEqual(s);
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
    });
    expect(locateFromLink(new URLSearchParams({ address_bounds: BOX })).type).toBe('location');
    expect(locateFromLink(new URLSearchParams({ author_query: 'ana' })).type).toBe('author');
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
