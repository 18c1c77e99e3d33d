import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CaseSummary } from '../../api/cases';
import type { Provider } from '../../api/monitor';
import { testEvidence } from '../../test/evidenceFixtures';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testMatch, testProfile, testProviders } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { readInboxQuery } from '../../lib/inboxQuery';
import { testInboxStory } from '../../test/storyFixtures';
import { StoryCard, type StoryInbox } from './StoryCard';

const user = userEvent.setup({ delay: null });
const providers = new Map<string, Provider>(testProviders.map((p) => [p.name, p]));

const harbour: CaseSummary = {
  id: 3,
  name: 'Harbour strike',
  status: 'open',
  privacy: 'private',
  tags: [],
  assignees: [],
  owner: { id: 1, name: 'Ada', email: 'ada@example.test', username: 'ada' },
  itemCount: 0,
  canEdit: true,
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
};

/** The unread view of the inbox, read at asOf. */
function testInbox(): StoryInbox {
  return {
    query: readInboxQuery(new URLSearchParams('filters=unread')),
    asOf: 1_795_300_000_000,
    actions: { onFlag: vi.fn(), onRead: vi.fn(), onThread: vi.fn(), onAnalyze: vi.fn(), onOpenPost: vi.fn() },
    terms: new Map(),
    blurMedia: false,
  };
}

function renderCard(matchCount = 2, inbox = testInbox()) {
  return renderWithApp(
    <StoryCard row={testInboxStory('s-7', matchCount, testMatch(5))} providers={providers} inbox={inbox} />,
    { profile: testProfile(), path: '/monitor/matches/stories' },
  );
}

/** The inbox's 12 matches of story s-7, 10 a page, read at the given time. */
function storyMatchesRoute(asOf: number) {
  return (request: { query: URLSearchParams }) => {
    const page = Number(request.query.get('page'));
    const ids = page === 1 ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [11, 12];
    return {
      data: ids.map((n) => testMatch(n, {}, { storyId: 's-7' })),
      meta: { current_page: page, last_page: 2, per_page: 10, total: 12, as_of: asOf },
    };
  };
}

describe('StoryCard', () => {
  it('captures the whole story, not its newest match', async () => {
    const requests = fakeServer({
      'POST /api/v1/evidence': new Reply(202, { data: { id: '21' } }),
      'GET /api/v1/evidence/21': {
        data: testEvidence({
          id: '21',
          kind: 'story',
          target: 's-7',
          files: [{ name: 'story.json', sha256: 'ef'.repeat(32), size: 900 }],
        }),
      },
    });
    renderCard();
    const card = screen.getByRole('article', { name: 'The Erasmus bridge is closed' });
    await user.click(within(card).getByRole('button', { name: 'Capture as evidence' }));
    const dialog = await screen.findByRole('dialog', { name: 'Evidence capture 21' });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ storyId: 's-7' });
    expect(await within(dialog).findByRole('link', { name: 'story.json' })).toBeInTheDocument();
  });

  it('adds the story to a case', async () => {
    const requests = fakeServer({
      'GET /api/v1/cases': { data: [harbour] },
      'POST /api/v1/cases/3/items': new Reply(201, { data: { id: 4 } }),
    });
    renderCard();
    const card = screen.getByRole('article', { name: 'The Erasmus bridge is closed' });
    await user.click(within(card).getByRole('button', { name: 'Add to case' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to case' });
    await within(dialog).findByText('Harbour strike');
    expect(within(dialog).getByText('Why this story matters to the case.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Added to the case “Harbour strike”.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ storyId: 's-7', note: '' });
  });
});

describe('StoryCard, its matches', () => {
  it('expands into the inbox’s matches of the story, a page at a time, each with its own buttons', async () => {
    const requests = fakeServer({ 'GET /api/v1/monitor/matches': storyMatchesRoute(1_795_300_100_000) });
    const inbox = testInbox();
    renderCard(12, inbox);
    const card = screen.getByRole('article', { name: 'The Erasmus bridge is closed' });
    const toggle = within(card).getByRole('button', { name: '12 matches in this inbox' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const storyMatches = () => requests.filter((r) => r.path === '/api/v1/monitor/matches');
    expect(storyMatches()).toEqual([]); // nothing is loaded until the card is expanded

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const feed = await within(card).findByRole('feed', { name: 'Matches in this story' });
    expect(await within(feed).findAllByRole('article')).toHaveLength(10);
    // The story's matches under the inbox's filters.
    const first = storyMatches()[0]!;
    expect(first.query.get('storyId')).toBe('s-7');
    expect(first.query.get('unread')).toBe('true');
    expect(first.query.get('groupBy')).toBeNull();

    await user.click(within(card).getByRole('button', { name: 'Show more matches' }));
    await waitFor(() => expect(within(feed).getAllByRole('article')).toHaveLength(12));
    expect(within(card).queryByRole('button', { name: 'Show more matches' })).not.toBeInTheDocument();

    const eleventh = within(feed).getByRole('article', { name: 'Unread match by Author 11' });
    await user.click(within(eleventh).getByRole('button', { name: 'Mark as read' }));
    expect(inbox.actions.onRead).toHaveBeenCalledWith(
      expect.objectContaining({ matchMeta: expect.objectContaining({ matchId: 11 }) }),
    );
    // The list has no selection of its own: the bulk actions are the story's.
    expect(within(feed).queryByRole('checkbox')).not.toBeInTheDocument();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(card).queryByRole('feed')).not.toBeInTheDocument();
  });

  it.each([
    {
      name: 'marks the whole story read',
      click: ['Mark story read'],
      path: 'is-read',
      set: { setMarkedAsRead: true },
      reply: { updatedCount: 2, expectedCount: 2 },
      says: '2 matches marked as read',
    },
    {
      name: 'flags the whole story after the flag warning, and says what permissions held back',
      click: ['Flag story'],
      warned: true,
      path: 'is-flagged',
      set: { setIsFlagged: true },
      reply: { updatedCount: 1, expectedCount: 2 },
      says: 'Only 1 of 2 matches were flagged: the others belong to searches you can only view.',
    },
    {
      name: 'unflags the whole story from the menu',
      click: ['More actions on the story', 'Unflag story'],
      path: 'is-flagged',
      set: { setIsFlagged: false },
      reply: { updatedCount: 2, expectedCount: 2 },
      says: '2 matches unflagged',
    },
  ])('$name', async ({ click, warned, path, set, reply, says }) => {
    const requests = fakeServer({ [`PATCH /api/v1/monitor/matches/update-all/${path}`]: { data: reply } });
    renderCard(2);
    const card = screen.getByRole('article', { name: 'The Erasmus bridge is closed' });
    await user.click(within(card).getByRole('button', { name: click[0] }));
    if (click[1]) await user.click(await screen.findByRole('menuitem', { name: click[1] }));
    if (warned) {
      const warning = await screen.findByRole('dialog', { name: 'Flagging matches' });
      expect(requests.filter((r) => r.method === 'PATCH')).toEqual([]);
      await user.click(within(warning).getByRole('button', { name: 'Flag' }));
    }
    expect(await screen.findByText(says)).toBeInTheDocument();
    // Every match of the story the inbox's filters select, up to when the stories were read.
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
      { unread: true, storyId: 's-7', upTo: 1_795_300_000_000, ...set },
    ]);
  });

  it('acts on what the expanded list shows: up to when it was read', async () => {
    const requests = fakeServer({
      'GET /api/v1/monitor/matches': storyMatchesRoute(1_795_300_100_000),
      'PATCH /api/v1/monitor/matches/update-all/is-read': { data: { updatedCount: 12, expectedCount: 12 } },
    });
    renderCard(12);
    const card = screen.getByRole('article', { name: 'The Erasmus bridge is closed' });
    await user.click(within(card).getByRole('button', { name: '12 matches in this inbox' }));
    await within(card).findByRole('feed', { name: 'Matches in this story' });
    await user.click(within(card).getByRole('button', { name: 'Mark story read' }));
    expect(await screen.findByText('12 matches marked as read')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toMatchObject({ storyId: 's-7', upTo: 1_795_300_100_000 });
  });
});
