import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLiveCounts } from '../../hooks/useMatchesQuery';
import { readCookie } from '../../lib/cookies';
import { fakeServer } from '../../test/fakeServer';
import { testMatch, testProfile, testProviders } from '../../test/fixtures';
import { InboxPage } from '../../pages/monitor/InboxPage';
import { renderApp, renderWithApp } from '../../test/renderApp';
import { SKIP_FLAG_WARNING_COOKIE } from '../../hooks/useMatchActions';

const user = userEvent.setup({ delay: null });

// The test DOM lays nothing out; the virtualized list needs a viewport to fill.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly report: ResizeObserverCallback) {}
      observe(target: Element) {
        const entry = {
          target,
          contentRect: { width: 1200, height: 800 },
          borderBoxSize: [{ inlineSize: 1200, blockSize: 800 }],
        };
        this.report([entry as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
      }
      unobserve() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  document.cookie = `${SKIP_FLAG_WARNING_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
});

function inboxServer(patch: (body: unknown) => unknown, extra: Record<string, unknown> = {}) {
  return fakeServer({
    'GET /api/v1/monitor/providers': { data: testProviders },
    'GET /api/v1/monitor/searches': { data: [] },
    'GET /api/v1/monitor/matches': {
      data: [
        testMatch(1),
        testMatch(2, {
          matchMeta: {
            matchId: 2,
            monitorSearchId: 8,
            canEdit: false,
            isFlagged: false,
            isRead: false,
            matchedTerms: [],
          },
        }),
      ],
      meta: { current_page: 1, last_page: 1, per_page: 100, total: 2, as_of: 1_795_000_000_000 },
    },
    'PATCH /api/v1/monitor/matches/update/is-deleted': (request: { body: unknown }) => ({ data: patch(request.body) }),
    ...extra,
  });
}

describe('inbox', () => {
  // Issue 28: header and list counts disagreed while new matches waited behind "Show them".
  it('says how many matches wait behind "Show them", so the list and the header add up', async () => {
    let stored = 2;
    let shownAt = 1_795_000_000_000;
    const requests = fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/monitor/searches': { data: [] },
      'GET /api/v1/monitor/matches/counts': () => ({
        data: { totalCount: stored, unreadCount: stored, deletedCount: 0, flaggedCount: 0 },
      }),
      'GET /api/v1/monitor/matches': (request: { query: URLSearchParams }) => {
        const since = request.query.get('since');
        if (since !== null) {
          // The matches made after the list was read.
          return {
            data: [],
            meta: {
              current_page: 1,
              last_page: 1,
              per_page: 1,
              total: Number(since) === shownAt ? stored - 2 : 0,
              as_of: 0,
            },
          };
        }
        const shown = Array.from({ length: stored }, (_, i) => testMatch(i + 1));
        return { data: shown, meta: { current_page: 1, last_page: 1, per_page: 100, total: stored, as_of: shownAt } };
      },
    });
    const { queryClient } = renderWithApp(<InboxPage view="list" />, {
      profile: testProfile({ is_inbox_streaming_enabled: false }),
    });
    const header = await screen.findByText(/^2 matches · 2 unread/);
    expect(await screen.findByRole('status')).toHaveTextContent('2 matches');

    // Five more are stored; the live channel brings the counts, not the matches.
    stored = 7;
    act(() => applyLiveCounts(queryClient, { totalCount: 7, unreadCount: 7, deletedCount: 0, flaggedCount: 0 }));
    expect(await screen.findByText('5 new matches have arrived.')).toBeVisible();
    expect(header).toHaveTextContent(/^7 matches · 7 unread/);
    expect(screen.getByRole('status')).toHaveTextContent('2 matches');
    expect(requests.some((r) => r.query.get('since') === String(shownAt))).toBe(true);

    shownAt += 1000;
    await user.click(screen.getByRole('button', { name: 'Show them' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('7 matches'));
    await waitFor(() => expect(screen.queryByText(/new matches? ha(ve|s) arrived/)).not.toBeInTheDocument());
  });

  it('puts its filters in the address and asks the server for them', async () => {
    const requests = inboxServer(() => undefined);
    const { router } = renderApp('/monitor/matches/list', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Unread' }));
    await waitFor(() => expect(router.state.location.search).toBe('?filters=unread'));
    await waitFor(() =>
      expect(requests.some((r) => r.path === '/api/v1/monitor/matches' && r.query.get('unread') === 'true')).toBe(true),
    );
  });

  // Issue 28: "Mark read 3 filtered matches" marked 35, among them matches never shown.
  it('marks the filtered matches up to the moment the list was read', async () => {
    const requests = inboxServer(() => undefined, {
      'PATCH /api/v1/monitor/matches/update-all/is-read': { data: { updatedCount: 2, expectedCount: 2 } },
    });
    renderApp('/monitor/matches/list?filters=unread', { profile: testProfile() });
    await screen.findByRole('article', { name: 'Unread match by Author 1' });
    await user.click(screen.getByRole('combobox', { name: 'Apply to' }));
    await user.click(await screen.findByRole('option', { name: 'Filtered (2)' }));
    await user.click(screen.getByRole('button', { name: 'Mark read 2 filtered matches' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
        unread: true,
        upTo: 1_795_000_000_000,
        setMarkedAsRead: true,
      }),
    );
  });

  it('deletes the chosen matches after confirming, and warns when permissions held some back', async () => {
    const requests = inboxServer(() => ({ updatedCount: 1, expectedCount: 2 }));
    renderApp('/monitor/matches/list', { profile: testProfile() });
    await screen.findByRole('article', { name: 'Unread match by Author 1' });
    await user.click(screen.getByRole('checkbox', { name: 'Choose every loaded match' }));
    await user.click(screen.getByRole('button', { name: 'Delete 2 chosen matches' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete matches?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(
      await screen.findByText('Only 1 of 2 matches were deleted: the others belong to searches you can only view.'),
    ).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      matchResultDocuments: [1, 2],
      setIsDeleted: true,
    });
    // The match the user could edit is gone; the other stays.
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Unread match by Author 1' })).not.toBeInTheDocument(),
    );
    expect(await screen.findByRole('article', { name: 'Unread match by Author 2' })).toBeInTheDocument();
  });

  it('analyses a match’s post with the same Analyze as Beacon’s cards', async () => {
    const requests = inboxServer(() => undefined, {
      'POST /api/v1/ai-insights/analyze': {
        data: {
          postId: 'post-1',
          summary: 'The bridge is closed.',
          model: 'extractive',
          entities: {},
          mentioned_locations: [],
          threat: { score: 0, reasons: [] },
        },
      },
    });
    renderApp('/monitor/matches/list', { profile: testProfile() });
    const card = await screen.findByRole('article', { name: 'Unread match by Author 1' });
    await user.click(within(card).getByRole('button', { name: 'Analyze' }));
    const dialog = await screen.findByRole('dialog', { name: 'Analysis of the post by Author 1' });
    expect(await within(dialog).findByText('The bridge is closed.')).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/v1/ai-insights/analyze')?.body).toEqual({ postId: 'post-1' });
  });

  it('warns that flags do not keep matches, until the user asks not to be told again', async () => {
    const requests = inboxServer(() => undefined, {
      'PATCH /api/v1/monitor/matches/update/is-flagged': { data: { updatedCount: 1, expectedCount: 1 } },
    });
    renderApp('/monitor/matches/list', { profile: testProfile() });
    const card = await screen.findByRole('article', { name: 'Unread match by Author 1' });
    const flagged = () => requests.filter((r) => r.path === '/api/v1/monitor/matches/update/is-flagged');

    await user.click(within(card).getByRole('button', { name: 'Flag' }));
    let warning = await screen.findByRole('dialog', { name: 'Flagging matches' });
    expect(warning).toHaveTextContent('A flagged match is still deleted with the others after 30 days');
    await user.click(within(warning).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Flagging matches' })).not.toBeInTheDocument());
    expect(flagged()).toHaveLength(0);

    await user.click(within(card).getByRole('button', { name: 'Flag' }));
    warning = await screen.findByRole('dialog', { name: 'Flagging matches' });
    await user.click(within(warning).getByRole('checkbox', { name: /Do not show again/ }));
    await user.click(within(warning).getByRole('button', { name: 'Flag' }));
    await waitFor(() => expect(flagged()).toHaveLength(1));
    expect(flagged()[0]?.body).toEqual({ matchResultDocuments: [1], setIsFlagged: true });
    expect(readCookie(SKIP_FLAG_WARNING_COOKIE)).toBeDefined();
  });

  it('flags at once once the warning was put away for good', async () => {
    document.cookie = `${SKIP_FLAG_WARNING_COOKIE}=1; path=/`;
    const requests = inboxServer(() => undefined, {
      'PATCH /api/v1/monitor/matches/update/is-flagged': { data: { updatedCount: 1, expectedCount: 1 } },
    });
    renderApp('/monitor/matches/list', { profile: testProfile() });
    const card = await screen.findByRole('article', { name: 'Unread match by Author 1' });
    await user.click(within(card).getByRole('button', { name: 'Flag' }));
    await waitFor(() =>
      expect(requests.some((r) => r.path === '/api/v1/monitor/matches/update/is-flagged')).toBe(true),
    );
    expect(screen.queryByRole('dialog', { name: 'Flagging matches' })).not.toBeInTheDocument();
  });

  it('warns before opening a post from a breached-data community, every time', async () => {
    fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/monitor/searches': { data: [] },
      'GET /api/v1/monitor/matches': {
        data: [
          testMatch(1, {}, { community_kind: 'breached-data', post_link: 'https://leaks.example/t/1' }),
          testMatch(2, {}, { community_kind: 'discussion-boards', post_link: 'https://forum.example/t/2' }),
        ],
        meta: { current_page: 1, last_page: 1, per_page: 100, total: 2, as_of: 1_795_000_000_000 },
      },
    });
    renderApp('/monitor/matches/list', { profile: testProfile() });
    const breached = await screen.findByRole('article', { name: 'Unread match by Author 1' });
    for (const choice of ['Cancel', 'Continue']) {
      await user.click(within(breached).getByRole('button', { name: 'Open the original post' }));
      const warning = await screen.findByRole('dialog', { name: 'Breached data' });
      expect(warning).toHaveTextContent('This post comes from a community that trades breached data.');
      await user.click(within(warning).getByRole('button', { name: choice }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Breached data' })).not.toBeInTheDocument());
    }
    // Continue leads to the usual external-link warning for the post's address.
    const leaving = await screen.findByRole('dialog', { name: 'You are leaving Sightline' });
    expect(leaving).toHaveTextContent('https://leaks.example/t/1');
    await user.click(within(leaving).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'You are leaving Sightline' })).not.toBeInTheDocument(),
    );

    const other = screen.getByRole('article', { name: 'Unread match by Author 2' });
    await user.click(within(other).getByRole('button', { name: 'Open the original post' }));
    expect(await screen.findByRole('dialog', { name: 'You are leaving Sightline' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Breached data' })).not.toBeInTheDocument();
  });
});
