import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test/fakeServer';
import { testMatch, testProfile, testProviders } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { testInboxStory } from '../../test/storyFixtures';
import { InboxStories } from './InboxStories';

const user = userEvent.setup({ delay: null });

function storiesServer(rows: unknown[], lastPage = 1) {
  return fakeServer({
    'GET /api/v1/monitor/providers': { data: testProviders },
    'GET /api/v1/monitor/searches': { data: [] },
    'GET /api/v1/monitor/matches': (request: { query: URLSearchParams }) => ({
      data: request.query.get('page') === '2' ? [] : rows,
      meta: { current_page: Number(request.query.get('page')), last_page: lastPage, per_page: 20, total: rows.length },
    }),
  });
}

describe('inbox stories', () => {
  it('shows a card per story with its count, sources, languages, timeline and newest match', async () => {
    const requests = storiesServer([testInboxStory('post-1', 4, testMatch(5, {}, { author_name: 'Newest author' }))]);
    renderWithApp(<InboxStories />, { profile: testProfile(), path: '/monitor/matches/stories?filters=unread' });
    const list = await screen.findByRole('list', { name: 'Stories' });
    const card = await within(list).findByRole('article', { name: 'The Erasmus bridge is closed' });
    expect(within(card).getByRole('link', { name: 'The Erasmus bridge is closed' })).toHaveAttribute(
      'href',
      '/monitor/stories/post-1',
    );
    expect(card).toHaveTextContent('4 matches in this inbox · 3 posts in the story');
    const sources = within(card).getByRole('list', { name: 'Sources' });
    expect(
      within(sources)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['X 2', 'Reddit 1']);
    const languages = within(card).getByRole('list', { name: 'Languages' });
    expect(
      within(languages)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['English 2', 'Dutch 1']);
    expect(within(card).getByRole('img', { name: 'Timeline: 3 posts over 2 hours with posts' })).toBeInTheDocument();
    expect(card).toHaveTextContent('Newest match: Newest author');
    // The view asks for the inbox grouped by story, with the filters of the address.
    const grouped = requests.find((r) => r.path === '/api/v1/monitor/matches');
    expect(grouped?.query.get('groupBy')).toBe('story');
    expect(grouped?.query.get('unread')).toBe('true');
    // The card needs no request of its own: the grouped reply carries the story's summary.
    expect(requests.some((r) => r.path.startsWith('/api/v1/stories/'))).toBe(false);
  });

  it('loads more stories on demand', async () => {
    const requests = storiesServer([testInboxStory('post-1', 1, testMatch(1))], 2);
    renderWithApp(<InboxStories />, { profile: testProfile(), path: '/monitor/matches/stories' });
    await user.click(await screen.findByRole('button', { name: 'Load more stories' }));
    await waitFor(() =>
      expect(requests.some((r) => r.path === '/api/v1/monitor/matches' && r.query.get('page') === '2')).toBe(true),
    );
  });

  it('marks a match of an expanded story read on its own, and the whole story from its card', async () => {
    const row = testInboxStory('post-1', 2, testMatch(5));
    const requests = fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/monitor/searches': { data: [] },
      'GET /api/v1/monitor/matches': (request: { query: URLSearchParams }) =>
        request.query.get('storyId') === 'post-1'
          ? {
              data: [testMatch(5, {}, { storyId: 'post-1' }), testMatch(4, {}, { storyId: 'post-1' })],
              meta: { current_page: 1, last_page: 1, per_page: 10, total: 2, as_of: 1_795_300_100_000 },
            }
          : { data: [row], meta: { current_page: 1, last_page: 1, per_page: 20, total: 1, as_of: 1_795_300_000_000 } },
      'PATCH /api/v1/monitor/matches/update/is-read': { data: { updatedCount: 1, expectedCount: 1 } },
      'PATCH /api/v1/monitor/matches/update-all/is-read': { data: { updatedCount: 2, expectedCount: 2 } },
    });
    renderWithApp(<InboxStories />, { profile: testProfile(), path: '/monitor/matches/stories?filters=unread' });
    const card = await screen.findByRole('article', { name: 'The Erasmus bridge is closed' });
    await user.click(within(card).getByRole('button', { name: '2 matches in this inbox' }));
    const feed = await within(card).findByRole('feed', { name: 'Matches in this story' });
    const match = await within(feed).findByRole('article', { name: 'Unread match by Author 4' });
    await user.click(within(match).getByRole('button', { name: 'Mark as read' }));
    expect(await within(feed).findByRole('article', { name: 'Match by Author 4' })).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/v1/monitor/matches/update/is-read')?.body).toEqual({
      matchResultDocuments: [4],
      setMarkedAsRead: true,
    });

    await user.click(within(card).getByRole('button', { name: 'Mark story read' }));
    expect(await screen.findByText('2 matches marked as read')).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/v1/monitor/matches/update-all/is-read')?.body).toEqual({
      unread: true,
      storyId: 'post-1',
      upTo: 1_795_300_100_000,
      setMarkedAsRead: true,
    });
    // The stories load again: a story read through leaves the unread view.
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/api/v1/monitor/matches' && r.query.get('groupBy'))).toHaveLength(2),
    );
  });

  it.each([
    { path: '/monitor/matches/stories', title: 'No stories yet', says: 'Save a search' },
    {
      path: '/monitor/matches/stories?filters=flagged',
      title: 'No stories for these filters',
      says: 'clear the filters',
    },
  ])('says what to do when there is none ($title)', async ({ path, title, says }) => {
    storiesServer([]);
    renderWithApp(<InboxStories />, { profile: testProfile(), path });
    const heading = await screen.findByRole('heading', { name: title });
    expect(heading.parentElement).toHaveTextContent(says);
  });
});
