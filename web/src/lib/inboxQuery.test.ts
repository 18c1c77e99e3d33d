import { describe, expect, it } from 'vitest';
import type { Match } from '../api/monitor';
import { isFiltered, matchFitsQuery, readInboxQuery, writeInboxQuery } from './inboxQuery';

describe('inbox query in the address', () => {
  it('reads defaults from an empty address', () => {
    expect(readInboxQuery(new URLSearchParams())).toEqual({
      monitorSearchIds: [],
      filters: [],
      providers: [],
      searchText: '',
      searchIn: ['titleText', 'authorName', 'authorScreenName'],
      sort: 'published_desc',
    });
  });

  it('reads every part and ignores unknown values', () => {
    const params = new URLSearchParams(
      'monitorSearchIds=3,x,7&filters=unread,bogus,images&providers=reddit,telegram&searchText=%20bridge%20&searchIn=authorName&sort=discovered_asc',
    );
    expect(readInboxQuery(params)).toEqual({
      monitorSearchIds: [3, 7],
      filters: ['unread', 'images'],
      providers: ['reddit', 'telegram'],
      searchText: 'bridge',
      searchIn: ['authorName'],
      sort: 'discovered_asc',
    });
  });

  it('pins a search page to its search', () => {
    expect(readInboxQuery(new URLSearchParams('monitorSearchIds=1'), [9]).monitorSearchIds).toEqual([9]);
  });

  it('writes only what differs from the defaults and keeps other parameters', () => {
    const written = writeInboxQuery(new URLSearchParams('other=1&sort=published_asc'), {
      filters: ['flagged'],
      sort: 'published_desc',
      searchIn: ['titleText', 'authorName', 'authorScreenName'],
      searchText: ' ',
    });
    expect(written.toString()).toBe('other=1&filters=flagged');
  });

  it('round-trips', () => {
    const query = readInboxQuery(
      new URLSearchParams('filters=video&searchText=a+b&searchIn=titleText&sort=discovered_desc'),
    );
    expect(readInboxQuery(writeInboxQuery(new URLSearchParams(), query))).toEqual(query);
  });

  it('knows when the inbox is filtered', () => {
    expect(isFiltered(readInboxQuery(new URLSearchParams()))).toBe(false);
    expect(isFiltered(readInboxQuery(new URLSearchParams('filters=unread')))).toBe(true);
    expect(isFiltered(readInboxQuery(new URLSearchParams('searchText=x')))).toBe(true);
    expect(isFiltered(readInboxQuery(new URLSearchParams('providers=reddit')))).toBe(true);
  });
});

describe('whether a live match fits a list', () => {
  const match: Match = {
    matchMeta: { matchId: 1, monitorSearchId: 7, canEdit: true, isFlagged: false, isRead: false, matchedTerms: [] },
    isDeleted: false,
    discoveredDate: 0,
    publishedDate: 0,
    monitorSearchName: 'Bridges',
    post: {
      id: 'p1',
      storyId: 'p1',
      provider: 'reddit',
      native_id: '1',
      content_type: 'thread_post',
      published_at: '',
      discovered_at: '',
      entities: {},
      threat: { score: 0 },
      photos: [{ large: 'https://x/a.jpg' }],
    },
  };
  it.each([
    { address: '', want: 'yes' },
    { address: 'monitorSearchIds=7,8', want: 'yes' },
    { address: 'monitorSearchIds=8', want: 'no' },
    { address: 'filters=unread,images', want: 'yes' },
    { address: 'filters=flagged', want: 'no' },
    { address: 'filters=video', want: 'no' },
    { address: 'filters=location', want: 'no' },
    { address: 'providers=telegram,reddit', want: 'yes' },
    { address: 'providers=telegram', want: 'no' },
    { address: 'searchText=bridge', want: 'unknown' },
    { address: 'filters=flagged&searchText=bridge', want: 'no' },
  ])('$address: $want', ({ address, want }) => {
    expect(matchFitsQuery(match, readInboxQuery(new URLSearchParams(address)))).toBe(want);
  });

  // A story card's list: only the story's posts; a post stored before stories is its own story.
  it.each([
    { postStory: 'wire', storyId: 'wire', want: 'yes' },
    { postStory: 'wire', storyId: 'p1', want: 'no' },
    { postStory: '', storyId: 'p1', want: 'yes' },
    { postStory: '', storyId: 'wire', want: 'no' },
  ])('a post of story "$postStory" in the list of story $storyId: $want', ({ postStory, storyId, want }) => {
    const query = { ...readInboxQuery(new URLSearchParams('')), storyId };
    expect(matchFitsQuery({ ...match, post: { ...match.post, storyId: postStory } }, query)).toBe(want);
  });
});
