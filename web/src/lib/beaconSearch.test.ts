import { describe, expect, it } from 'vitest';
import { newSearch, requestFor, searchFromParams, searchParams, tabOf, withDates } from './beaconSearch';

const categories: Record<string, string> = { reddit: 'social', tor: 'darkweb', leaks: 'documents', forum: 'deep-web' };
const categoryOf = (p: string) => categories[p];
const NOW = Date.UTC(2026, 10, 24);

describe('the Beacon search in the URL', () => {
  it('round-trips every field', () => {
    const s = {
      ...newSearch('flood AND bridge'),
      tab: 'social' as const,
      sort: 'relevance' as const,
      range: 'week' as const,
      providers: ['reddit'],
      authors: ['ana'],
      boards: ['r/news'],
      crawledFrom: 1000,
      crawledTo: 2000,
    };
    expect(searchFromParams(searchParams(s))).toEqual(s);
  });

  it('reads the external-link parameters of the spec', () => {
    const s = searchFromParams(
      new URLSearchParams({
        text: 'bridge',
        authors: 'ana,bo',
        boardNames: 'r/news',
        networks: 'reddit,tor',
        startPublishedTimestamp: '1000',
        endPublishedTimestamp: '2000',
      }),
    );
    expect(s).toMatchObject({
      query: 'bridge',
      authors: ['ana', 'bo'],
      boards: ['r/news'],
      providers: ['reddit', 'tor'],
      from: 1000,
      to: 2000,
      tab: 'results',
    });
  });
});

describe('requestFor', () => {
  it('sends the date crawled only when the search bounds it', () => {
    expect(requestFor(newSearch('x'), tabOf('results'), categoryOf)).not.toHaveProperty('discoveredStartDate');
    const crawled = requestFor({ ...newSearch('x'), crawledFrom: 5, crawledTo: 9 }, tabOf('results'), categoryOf)!;
    expect(crawled).toMatchObject({ discoveredStartDate: 5, discoveredEndDate: 9 });
  });

  it('keeps to the tab’s data sources', () => {
    expect(requestFor(newSearch('x'), tabOf('breaches'), categoryOf)?.providers).toEqual(['leaks']);
    expect(requestFor(newSearch('x'), tabOf('social'), categoryOf)?.providers).toBeUndefined();
  });

  it('narrows to the chosen data sources in the tab, and has nothing to search without one', () => {
    const chosen = { ...newSearch('x'), providers: ['reddit', 'tor'] };
    expect(requestFor(chosen, tabOf('results'), categoryOf)?.providers).toEqual(['reddit', 'tor']);
    expect(requestFor(chosen, tabOf('social'), categoryOf)?.providers).toEqual(['reddit']);
    expect(requestFor(chosen, tabOf('breaches'), categoryOf)).toBeNull();
  });

  it('keeps the date shortcut relative until sent, and prefers an explicit window', () => {
    const lastDay = requestFor({ ...newSearch('x'), range: 'day' }, tabOf('results'), categoryOf)!;
    expect(lastDay.range).toBe('day');
    expect(withDates(lastDay, NOW)).toEqual({ query: 'x', sort: 'published_desc', startDate: NOW - 86_400_000 });
    const window = requestFor({ ...newSearch('x'), range: 'day', from: 5, to: 9 }, tabOf('results'), categoryOf)!;
    expect(withDates(window, NOW)).toMatchObject({ startDate: 5, endDate: 9 });
    expect(withDates(requestFor(newSearch('x'), tabOf('results'), categoryOf)!, NOW).startDate).toBeUndefined();
  });
});
