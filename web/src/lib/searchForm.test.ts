import { describe, expect, it } from 'vitest';
import type { GroupMini } from '../api/monitor';
import { testProvider, testSearch } from '../test/fixtures';
import {
  beaconTestUrl,
  boardChipLabel,
  duplicateForm,
  formProblems,
  locateTestUrl,
  newForm,
  selectableGroups,
  serverProblems,
  summaryOf,
  toRequest,
  withAutoName,
  withProposedGroup,
  type SearchForm,
} from './searchForm';

const providers = [
  testProvider('twitter'),
  testProvider('gnip', { supersetOf: ['twitter'] }),
  testProvider('flickr'),
  testProvider('reddit'),
];
const now = new Date(2026, 2, 4, 12, 0);

function valid(overrides: Partial<SearchForm> = {}): SearchForm {
  return { ...newForm(providers, 3), name: 'Bridges', keywords: 'bridge', ...overrides };
}

const group = (id: number, overrides: Partial<GroupMini> = {}): GroupMini => ({
  id,
  name: `G${id}`,
  privacy: 'private',
  isSavedSearch: false,
  canEdit: true,
  isFavourite: false,
  ...overrides,
});

const saved = testSearch(7, {
  value: 'Bridge protests',
  groupId: 3,
  filterLists: [{ id: 2 }],
  search: {
    ...testSearch(7).search,
    query: 'protest AND bridge',
    keywords: ['protest bridge'],
    providers: [{ name: 'gnip' }, { name: 'twitter' }, { name: 'reddit' }],
    video_only: true,
  },
});

describe('new and copied forms', () => {
  it('starts with the default providers and the given group', () => {
    const form = newForm(providers, 4);
    expect(form.providers).toEqual(['twitter', 'reddit']);
    expect(form.groupId).toBe(4);
  });

  it('copies a search with the copy suffix, without overlapping providers or its id', () => {
    const copy = duplicateForm(saved, [group(3)], providers);
    expect(copy.id).toBeUndefined();
    expect(copy.name).toBe('Bridge protests (copy)');
    expect(copy.providers).toEqual(['twitter', 'reddit']);
    expect(copy.searchFilterIds).toEqual([2]);
    expect(copy.videosOnly).toBe(true);
    expect(copy.groupId).toBe(3);
  });

  it.each([
    { name: 'read-only group', groups: [group(3, { canEdit: false })] },
    { name: 'Uncategorized group', groups: [group(3, { isSavedSearch: true })] },
    { name: 'unknown group', groups: [] },
  ])('leaves out a $name', ({ groups }) => {
    expect(duplicateForm(saved, groups, providers).groupId).toBeNull();
  });

  it('offers only editable groups that are not Uncategorized', () => {
    expect(
      selectableGroups([group(1), group(2, { canEdit: false }), group(3, { isSavedSearch: true })]).map((g) => g.id),
    ).toEqual([1]);
  });
});

describe('proposed group', () => {
  it.each([
    { name: 'no groups', groupId: null, groups: [], proposed: 'My searches' },
    {
      name: 'only Uncategorized and read-only groups',
      groupId: null,
      groups: [group(1, { isSavedSearch: true }), group(2, { canEdit: false })],
      proposed: 'My searches',
    },
    { name: 'a group to choose', groupId: null, groups: [group(1)], proposed: null },
    { name: 'a group given', groupId: 1, groups: [], proposed: null },
  ])('$name', ({ groupId, groups, proposed }) => {
    expect(withProposedGroup(newForm(providers, groupId), groups).newGroupName).toBe(proposed);
  });
});

describe('name auto-fill', () => {
  it('follows location, then keywords, then author until edited', () => {
    let form = withAutoName({ ...newForm(providers), author: 'bob' });
    expect(form.name).toBe('bob');
    form = withAutoName({ ...form, keywords: 'osint' });
    expect(form.name).toBe('osint');
    form = withAutoName({ ...form, location: 'Paris, France' });
    expect(form.name).toBe('Paris, France');
    expect(withAutoName({ ...form, name: 'Mine', nameEdited: true, location: 'Lyon' }).name).toBe('Mine');
  });

  it('leaves a copy alone', () => {
    expect(withAutoName({ ...newForm(providers), name: 'Weekly (copy)', keywords: 'x' }).name).toBe('Weekly (copy)');
  });
});

describe('rules', () => {
  it('accepts a complete form', () => {
    expect(formProblems(valid(), now)).toEqual([]);
  });

  it.each<{ name: string; form: Partial<SearchForm>; fields: string[] }>([
    { name: 'no name', form: { name: ' ' }, fields: ['name'] },
    { name: 'a long name', form: { name: 'x'.repeat(256) }, fields: ['name'] },
    { name: 'no group', form: { groupId: null }, fields: ['group'] },
    { name: 'a new group', form: { groupId: null, newGroupName: 'Mine' }, fields: [] },
    { name: 'a new group without a name', form: { groupId: null, newGroupName: ' ' }, fields: ['group'] },
    { name: 'a new group with a long name', form: { groupId: null, newGroupName: 'x'.repeat(256) }, fields: ['group'] },
    { name: 'a chosen group wins over a new one', form: { newGroupName: '' }, fields: [] },
    { name: 'no provider', form: { providers: [] }, fields: ['providers'] },
    { name: 'no query', form: { keywords: '' }, fields: ['query'] },
    { name: 'a board is a query', form: { keywords: '', boards: ['pol'] }, fields: [] },
    { name: 'lower-case operator', form: { keywords: 'a and b' }, fields: ['keywords'] },
    { name: 'unbalanced quote and bracket', form: { keywords: '(a "b' }, fields: ['keywords', 'keywords'] },
    { name: 'an end in the past', form: { endDate: new Date(2026, 2, 1) }, fields: ['dateRange'] },
  ])('$name', ({ form, fields }) => {
    expect(formProblems(valid(form), now).map((p) => p.field)).toEqual(fields);
  });

  it('summarises valid keywords only', () => {
    expect(summaryOf('a b OR c')).toBe('(a AND b) OR (c)');
    expect(summaryOf('a and b')).toBe('');
  });

  it('maps the server’s field errors to the form', () => {
    expect(serverProblems({ group_id: ['You must select a group'], 'providers.0': ['Unknown provider'] })).toEqual([
      { field: 'group', title: 'group_id', message: 'You must select a group' },
      { field: 'providers', title: 'providers.0', message: 'Unknown provider' },
    ]);
  });
});

describe('request and links', () => {
  const form = valid({
    location: ' Paris, France ',
    locationBounds: 'POLYGON((0 0,1 0,1 1,0 0))',
    author: 'bob',
    startDate: new Date(Date.UTC(2026, 2, 5)),
    endDate: new Date(Date.UTC(2026, 2, 6)),
    boards: ['pol'],
    providers: ['reddit', 'news'],
  });

  it('builds the payload', () => {
    expect(toRequest(form)).toMatchObject({
      group_id: 3,
      name: 'Bridges',
      address: 'Paris, France',
      author_query: 'bob',
      keywords: 'bridge',
      providers: ['reddit', 'news'],
      start_at: Date.UTC(2026, 2, 5) / 1000,
      end_at: Date.UTC(2026, 2, 6) / 1000,
      board_names: ['pol'],
    });
  });

  it('tests the search in Locate with milliseconds', () => {
    const url = new URL(locateTestUrl(form, []), 'https://x');
    expect(url.pathname).toBe('/locate/quick-search');
    expect(url.searchParams.get('providers')).toBe('');
    expect(url.searchParams.get('start_date')).toBe(String(Date.UTC(2026, 2, 5)));
    expect(url.searchParams.get('address_bounds')).toBe('POLYGON((0 0,1 0,1 1,0 0))');
  });

  // One catalogue serves both: no fourchan-to-4chan or news-to-leaks mapping (docs/decisions.md).
  it('tests the search in Beacon with its network names', () => {
    const url = new URL(beaconTestUrl(form, ['4chan', 'news', 'reddit']), 'https://x');
    expect(url.searchParams.get('networks')).toBe('4chan,news,reddit');
    expect(url.searchParams.get('text')).toBe('bridge');
    expect(url.searchParams.get('endPublishedTimestamp')).toBe(String(Date.UTC(2026, 2, 6)));
  });
});

describe('board chip', () => {
  it.each([
    { boards: ['pol'], want: 'pol' },
    { boards: ['worldnews-europe'], want: 'worldnews-…' },
    { boards: ['a', 'b', 'c'], want: '3 boards' },
  ])('$boards', ({ boards, want }) => {
    expect(boardChipLabel(boards)).toBe(want);
  });
});
