import { describe, expect, it } from 'vitest';
import {
  checkState,
  defaultSelection,
  joinWithAnd,
  normalizeLoaded,
  onlyProvider,
  providersForLinks,
  providersOfRegion,
  searchTypesTooltip,
  selectAll,
  selectRegion,
  toggleProvider,
} from './providerSelection';
import { testProvider } from '../test/fixtures';

const providers = [
  testProvider('twitter'),
  testProvider('gnip', { supersetOf: ['twitter'], displayName: 'X Firehose' }),
  testProvider('reddit'),
  testProvider('flickr'),
  testProvider('infectedhostdata', { enabled: false }),
  testProvider('gab', { region: 'northAmerica' }),
  testProvider('raddle', { region: 'northAmerica' }),
];

describe('defaults', () => {
  it('selects every enabled provider except superset ones and flickr', () => {
    expect(defaultSelection(providers)).toEqual(['twitter', 'reddit', 'gab', 'raddle']);
  });
});

describe('select all', () => {
  it.each([
    { allowOverlap: false, want: ['twitter', 'reddit', 'flickr', 'gab', 'raddle'] },
    { allowOverlap: true, want: ['twitter', 'gnip', 'reddit', 'flickr', 'gab', 'raddle'] },
  ])('leaves superset providers out unless overlap is allowed ($allowOverlap)', ({ allowOverlap, want }) => {
    expect(selectAll(providers, true, allowOverlap)).toEqual(want);
    expect(selectAll(providers, false, allowOverlap)).toEqual([]);
  });
});

describe('toggling', () => {
  it.each([
    {
      name: 'choosing the superset clears its members',
      from: ['twitter', 'reddit'],
      pick: 'gnip',
      want: ['reddit', 'gnip'],
    },
    {
      name: 'choosing a member clears the superset',
      from: ['gnip', 'reddit'],
      pick: 'twitter',
      want: ['reddit', 'twitter'],
    },
    { name: 'others are untouched', from: ['reddit'], pick: 'gab', want: ['reddit', 'gab'] },
  ])('$name', ({ from, pick, want }) => {
    expect(toggleProvider(from, providers, pick, true, false)).toEqual(want);
  });

  it('keeps both when overlap is allowed', () => {
    expect(toggleProvider(['twitter'], providers, 'gnip', true, true)).toEqual(['twitter', 'gnip']);
  });

  it('unchecking removes only that provider', () => {
    expect(toggleProvider(['twitter', 'reddit'], providers, 'twitter', false, false)).toEqual(['reddit']);
  });
});

describe('only', () => {
  it('selects just that provider', () => {
    expect(onlyProvider(['twitter', 'reddit', 'gab'], providers, 'reddit', false)).toEqual(['reddit']);
  });

  it('selects all the others when it already is the only one', () => {
    expect(onlyProvider(['reddit'], providers, 'reddit', false)).toEqual(['twitter', 'flickr', 'gab', 'raddle']);
  });
});

describe('regions', () => {
  it('selects and clears a region', () => {
    expect(selectRegion(['twitter'], providers, 'northAmerica', true, false)).toEqual(['twitter', 'gab', 'raddle']);
    expect(selectRegion(['twitter', 'gab'], providers, 'northAmerica', false, false)).toEqual(['twitter']);
  });

  it('selects the global region without the superset provider or specialty sources', () => {
    expect(selectRegion([], providers, 'global', true, false)).toEqual(['twitter', 'reddit', 'flickr']);
  });

  it('lists specialty and superset providers last in the global group', () => {
    expect(providersOfRegion(providers, 'global').map((p) => p.name)).toEqual([
      'flickr',
      'reddit',
      'twitter',
      'infectedhostdata',
      'gnip',
    ]);
  });
});

describe('check state', () => {
  it.each([
    { selection: [], want: 'unchecked' },
    { selection: ['gab'], want: 'indeterminate' },
    { selection: ['gab', 'raddle', 'twitter'], want: 'checked' },
  ])('$selection is $want', ({ selection, want }) => {
    expect(checkState(selection, ['gab', 'raddle'])).toBe(want);
  });
});

describe('loading a saved selection', () => {
  it('drops a superset provider whose members are selected too, and specialty sources', () => {
    expect(normalizeLoaded(['gnip', 'twitter', 'infectedhostdata', 'gone'], providers, false)).toEqual(['twitter']);
  });

  it('keeps a superset provider chosen on its own', () => {
    expect(normalizeLoaded(['gnip', 'reddit'], providers, false)).toEqual(['gnip', 'reddit']);
  });
});

describe('external links', () => {
  it('send no provider list when all are selected', () => {
    expect(providersForLinks(selectAll(providers, true, false), providers, false)).toEqual([]);
    expect(providersForLinks(['reddit'], providers, false)).toEqual(['reddit']);
  });
});

describe('search-type tooltip', () => {
  it.each([
    { items: [], want: '' },
    { items: ['a'], want: 'a' },
    { items: ['a', 'b'], want: 'a and b' },
    { items: ['a', 'b', 'c'], want: 'a, b and c' },
  ])('joins $items', ({ items, want }) => {
    expect(joinWithAnd(items)).toBe(want);
  });

  it('lists the supported search types', () => {
    const geo = testProvider('x', {
      searchFeatures: { location: true, keyword: true, author: true, boardName: false },
    });
    expect(searchTypesTooltip(geo)).toBe('Supports location, keyword and author searches');
  });
});
