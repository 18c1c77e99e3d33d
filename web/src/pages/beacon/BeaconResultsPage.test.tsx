import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchBuilderProvider } from '../../components/searchBuilder/SearchBuilderProvider';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testMatch, testProfile, testProvider } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { BeaconResultsPage } from './BeaconResultsPage';

const pastes = testProvider('pastebin', { displayName: 'Pastes', category: 'documents' });
// On the catalogue, but not enabled on this server: the server refuses a search naming it.
const hostData = testProvider('infectedhostdata', { category: 'documents', enabled: false });
const x = testProvider('twitter', { displayName: 'X' });
const noResults = { data: { documents: [], count: 0, totalCount: 0, searchId: '', suggestions: [] } };

function renderResults(path: string, providers = [pastes, hostData, x]) {
  const requests = fakeServer({
    'GET /api/v1/monitor/providers': { data: providers },
    'POST /beacon/v1/documents': noResults,
    'POST /beacon/v1/all': noResults,
  });
  renderWithApp(
    <SearchBuilderProvider>
      <BeaconResultsPage />
    </SearchBuilderProvider>,
    { profile: testProfile(), path },
  );
  return requests;
}

const tabNames = () =>
  within(screen.getByRole('tablist', { name: 'Result categories' }))
    .getAllByRole('tab')
    .map((t) => t.textContent);

describe('Beacon results tabs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows only tabs with an available data source, and searches only those', async () => {
    const requests = renderResults('/beacon/results?q=bridge&tab=records');
    await waitFor(() => expect(tabNames()).toEqual(['Results', 'Records', 'Social', 'Flagged']));
    expect(screen.getByRole('tab', { name: 'Records' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(requests.some((r) => r.path === '/beacon/v1/documents')).toBe(true));
    expect(requests.find((r) => r.path === '/beacon/v1/documents')?.body).toMatchObject({ providers: ['pastebin'] });
  });

  it('leaves out a tab none of whose sources is available; a link to it lands on Results', async () => {
    const requests = renderResults('/beacon/results?q=bridge&tab=records', [hostData, x]);
    await waitFor(() => expect(tabNames()).toEqual(['Results', 'Social', 'Flagged']));
    expect(screen.getByRole('tab', { name: 'Results' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(requests.some((r) => r.path === '/beacon/v1/all')).toBe(true));
    expect(requests.some((r) => r.path === '/beacon/v1/documents')).toBe(false);
  });
});

describe('Beacon result marks', () => {
  afterEach(() => vi.unstubAllGlobals());

  // Issue 29: results can be marked read, unread again and deleted, not only flagged.
  it('marks a result read and unread, and deletes one after asking', async () => {
    const [first, second] = [testMatch(1).post, testMatch(2).post];
    const marks: Record<string, { read: boolean; deleted: boolean }> = {};
    const mark = (how: 'read' | 'unread' | 'deleted') => (r: { body: unknown }) => {
      for (const id of (r.body as { postIds: string[] }).postIds) {
        const m = (marks[id] ??= { read: false, deleted: false });
        if (how === 'deleted') m.deleted = true;
        else m.read = how === 'read';
      }
      return { data: { marked: true } };
    };
    const requests = fakeServer({
      'GET /api/v1/monitor/providers': { data: [testProvider('reddit')] },
      'POST /beacon/v1/all': {
        data: { documents: [first, second], count: 2, totalCount: 2, searchId: '', suggestions: [] },
      },
      'GET /beacon/v1/flags': noResults,
      'POST /beacon/v1/marks': () => ({ data: { ...marks } }),
      'POST /beacon/v1/marks/read': mark('read'),
      'POST /beacon/v1/marks/unread': mark('unread'),
      'POST /beacon/v1/marks/deleted': mark('deleted'),
    });
    renderWithApp(
      <SearchBuilderProvider>
        <BeaconResultsPage />
      </SearchBuilderProvider>,
      { profile: testProfile(), path: '/beacon/results?q=bridge' },
    );
    const user = userEvent.setup();
    const card = async (n: number) => (await screen.findAllByRole('listitem'))[n]!;

    await user.click(within(await card(0)).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() =>
      expect(
        within(screen.getAllByRole('listitem')[0]!).getByRole('button', { name: 'Mark as unread' }),
      ).toBeInTheDocument(),
    );
    expect(requests.find((r) => r.path === '/beacon/v1/marks/read')?.body).toEqual({ postIds: [first.id] });

    await user.click(within(await card(0)).getByRole('button', { name: 'Mark as unread' }));
    await waitFor(() =>
      expect(
        within(screen.getAllByRole('listitem')[0]!).getByRole('button', { name: 'Mark as read' }),
      ).toBeInTheDocument(),
    );

    await user.click(within(await card(1)).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this result?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(marks[second.id]).toEqual({ read: false, deleted: true });
  });

  // Beacon's message for a failed action, unless the server said why.
  it.each([
    { reply: new Reply(500, {}), want: 'There was an error performing the search action!' },
    { reply: new Reply(429, { message: 'Too many changes at once.' }), want: 'Too many changes at once.' },
  ])('says why marking a result failed (status $reply.status)', async ({ reply, want }) => {
    fakeServer({
      'GET /api/v1/monitor/providers': { data: [testProvider('reddit')] },
      'POST /beacon/v1/all': {
        data: { documents: [testMatch(1).post], count: 1, totalCount: 1, searchId: '', suggestions: [] },
      },
      'GET /beacon/v1/flags': noResults,
      'POST /beacon/v1/marks': { data: {} },
      'POST /beacon/v1/marks/read': reply,
    });
    renderWithApp(
      <SearchBuilderProvider>
        <BeaconResultsPage />
      </SearchBuilderProvider>,
      { profile: testProfile(), path: '/beacon/results?q=bridge' },
    );
    const user = userEvent.setup();
    const [card] = await screen.findAllByRole('listitem');
    await user.click(within(card!).getByRole('button', { name: 'Mark as read' }));
    expect(await screen.findByText(want)).toBeInTheDocument();
  });
});
