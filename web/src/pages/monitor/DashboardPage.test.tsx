import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Dashboard, DashboardLayout } from '../../api/dashboard';
import { applyLiveCounts } from '../../hooks/useMatchesQuery';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testGroup, testProfile, testProviders, testSearch } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });

const empty: Dashboard = {
  resultCount: 0,
  unreadCount: 0,
  newCount: 0,
  topAuthors: [],
  topProviders: [],
  topMentionedLocations: [],
  heatmap: [],
  timeline: [],
  spikes: [],
  threat: { buckets: Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i * 10 + 10, count: 0 })), top: [] },
};

const full: Dashboard = {
  ...empty,
  resultCount: 1234,
  unreadCount: 56,
  newCount: 7,
  topAuthors: [{ name: 'Alice', screenName: 'alice', provider: 'reddit', count: 12 }],
  topProviders: [{ provider: 'twitter', count: 30 }],
  topMentionedLocations: [{ name: 'Paris', countryCode: 'FR', lat: 48.85, lon: 2.35, count: 4 }],
  heatmap: [{ weekday: 1, hour: 10, count: 5 }],
  timeline: [{ date: '2026-11-20', monitorSearchId: 9, count: 5 }],
};

const everyWidget: DashboardLayout = {
  rows: [
    { widgets: ['result_count', 'unread_count', 'new_count'] },
    { widgets: ['top_authors', 'top_providers', 'top_mentioned_locations'] },
    { widgets: ['heatmap'] },
    { widgets: ['timeline'] },
    { widgets: ['threat'] },
  ],
};

function server(dashboard: unknown, searches = [testSearch(9, { value: 'Floods' })], layout = everyWidget) {
  return fakeServer({
    'GET /api/v1/monitor/providers': { data: testProviders },
    'GET /api/v1/monitor/searches': { data: searches },
    'GET /api/v1/monitor/dashboard': dashboard,
    'GET /api/v1/monitor/dashboard/layout': { data: layout },
  });
}

describe('DashboardPage', () => {
  // Issue 28: the dashboard showed 164 results beside the sidebar's 171 a moment later.
  it('shows the results and unread results the sidebar counts, as the live counts change', async () => {
    fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/monitor/searches': { data: [testSearch(9, { value: 'Floods' })] },
      'GET /api/v1/monitor/dashboard': { data: { ...full, resultCount: 164, unreadCount: 164 } },
      'GET /api/v1/monitor/dashboard/layout': { data: everyWidget },
      'GET /api/v1/monitor/matches/counts': {
        data: { totalCount: 171, unreadCount: 171, deletedCount: 0, flaggedCount: 0 },
      },
    });
    const { queryClient } = renderApp('/monitor/dashboard', { profile: testProfile() });
    const results = await screen.findByRole('region', { name: 'Results' });
    const unread = screen.getByRole('region', { name: 'Unread results' });
    const sidebar = screen.getByRole('navigation', { name: 'Monitor' });
    await waitFor(() => expect(within(results).getByText('171')).toBeVisible());
    expect(within(unread).getByText('171')).toBeVisible();
    expect(within(sidebar).getByText('171')).toBeVisible();

    const dashboardLoads = () =>
      queryClient.getQueryCache().find({ queryKey: ['monitor', 'matches', 'counts', 'dashboard', []] });
    const loadsBefore = dashboardLoads()?.state.dataUpdateCount ?? 0;
    act(() => applyLiveCounts(queryClient, { totalCount: 180, unreadCount: 175, deletedCount: 0, flaggedCount: 0 }));
    await waitFor(() => expect(within(results).getByText('180')).toBeVisible());
    expect(within(unread).getByText('175')).toBeVisible();
    expect(within(sidebar).getByText('175')).toBeVisible();
    // The charts load again with the counts.
    await waitFor(() => expect(dashboardLoads()?.state.dataUpdateCount).toBeGreaterThan(loadsBefore));
  });

  it('adds up the chosen searches’ counts', async () => {
    fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/monitor/searches': {
        data: [testSearch(9, { value: 'Floods' }), testSearch(10, { value: 'Fires' })],
      },
      'GET /api/v1/monitor/dashboard': { data: full },
      'GET /api/v1/monitor/dashboard/layout': { data: everyWidget },
      'GET /api/v1/monitor/matches/counts/list': {
        data: [
          { monitorSearchId: 9, totalCount: 40, unreadCount: 4, deletedCount: 0, flaggedCount: 0 },
          { monitorSearchId: 10, totalCount: 2, unreadCount: 1, deletedCount: 0, flaggedCount: 0 },
        ],
      },
    });
    renderApp('/monitor/dashboard?monitorSearchIds=9,10', { profile: testProfile() });
    const results = await screen.findByRole('region', { name: 'Results' });
    await waitFor(() => expect(within(results).getByText('42')).toBeVisible());
    expect(within(screen.getByRole('region', { name: 'Unread results' })).getByText('5')).toBeVisible();
  });

  it('lists the spikes of the week and what trends in the matches', async () => {
    fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/monitor/searches': { data: [testSearch(9, { value: 'Floods' })] },
      'GET /api/v1/monitor/dashboard': {
        data: {
          ...empty,
          spikes: [
            { id: 3, monitorSearchId: 9, kind: 'search', name: '', start: 1764298800, end: 1764300600, count: 61, expected: 2.2, score: 11 },
          ],
        },
      },
      'GET /api/v1/monitor/dashboard/layout': { data: { rows: [{ widgets: ['spikes', 'trending'] }] } },
      'GET /api/v1/monitor/trends': {
        data: [
          {
            kind: 'hashtag',
            term: '#flood',
            count: 12,
            share: 0.4,
            baselineShare: 0.01,
            score: 7,
            storyIds: ['s1'],
            samples: [{ postId: 'p', storyId: 's1', provider: 'reddit', author: 'Ana', text: 'Dam warning #flood', url: '', publishedAt: '' }],
          },
        ],
      },
    });
    renderApp('/monitor/dashboard', { profile: testProfile() });
    const spikes = await screen.findByRole('region', { name: 'Spikes (7 days)' });
    expect(await within(spikes).findByRole('button', { name: /Floods — 61 posts, about 2 expected/ })).toBeVisible();
    expect(within(spikes).getByText(/Nov 28, 03:00–03:30 UTC/)).toBeVisible();
    const trending = screen.getByRole('region', { name: 'Trending in your matches (last hour)' });
    expect(await within(trending).findByText('#flood')).toBeVisible();
    expect(within(trending).getByText(/12 posts · 40% now, 1.0% before/)).toBeVisible();
    expect(within(trending).getByText('Ana: Dam warning #flood')).toBeVisible();
  });

  it('shows the widgets of the saved layout, row by row', async () => {
    server({ data: full }, undefined, { rows: [{ widgets: ['timeline', 'result_count'] }] });
    renderApp('/monitor/dashboard', { profile: testProfile() });
    await screen.findByRole('region', { name: 'Results per day (30 days)' });
    expect(
      within(screen.getByRole('region', { name: 'Screen' }))
        .getAllByRole('region')
        .map((r) => r.getAttribute('aria-label')),
    ).toEqual(['Results per day (30 days)', 'Results']);
  });

  it('shows the numbers and links each to the inbox filtered to it', async () => {
    const requests = server({ data: full });
    renderApp('/monitor/dashboard?monitorSearchIds=9', { profile: testProfile() });
    const results = await screen.findByRole('region', { name: 'Results' });
    expect(await within(results).findByRole('link', { name: /1.2k results/ })).toHaveAttribute(
      'href',
      '/monitor/matches/grid?monitorSearchIds=9',
    );
    const unread = screen.getByRole('region', { name: 'Unread results' });
    expect(within(unread).getByRole('link')).toHaveAttribute(
      'href',
      '/monitor/matches/grid?monitorSearchIds=9&filters=unread',
    );
    expect(within(screen.getByRole('region', { name: 'New results (last 24 hours)' })).getByText('7')).toBeVisible();
    const authors = screen.getByRole('region', { name: 'Top authors' });
    expect(within(authors).getByRole('link', { name: /Alice \(@alice\)/ })).toHaveAttribute(
      'href',
      '/monitor/matches/grid?monitorSearchIds=9&searchText=alice&searchIn=authorScreenName',
    );
    const sources = screen.getByRole('region', { name: 'Top data sources' });
    expect(within(sources).getByRole('img', { name: /Results by data source: X/ })).toBeInTheDocument();
    expect(within(sources).getByRole('link', { name: 'X' })).toHaveAttribute(
      'href',
      '/monitor/matches/grid?monitorSearchIds=9&providers=twitter',
    );
    expect(
      within(screen.getByRole('region', { name: 'Top mentioned locations (30 days)' })).getByRole('link', {
        name: /Paris, FR/,
      }),
    ).toHaveAttribute('href', '/monitor/matches/grid?monitorSearchIds=9&searchText=Paris&searchIn=titleText');
    expect(screen.getByRole('img', { name: 'Map of the most mentioned places: Paris 4' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Monday 10:00 5/ })).toBeInTheDocument();
    const timeline = screen.getByRole('region', { name: 'Results per day (30 days)' });
    expect(within(timeline).getByRole('img', { name: /2026-11-20, Floods: 5/ })).toBeInTheDocument();
    expect(await within(timeline).findByRole('link', { name: 'Floods' })).toHaveAttribute(
      'href',
      '/monitor/matches/grid?monitorSearchIds=9',
    );
    expect(requests.find((r) => r.path === '/api/v1/monitor/dashboard')?.query.get('monitorSearchIds')).toBe('9');
  });

  it('says what to do when there are no results yet', async () => {
    server({ data: empty });
    renderApp('/monitor/dashboard', { profile: testProfile() });
    const authors = await screen.findByRole('region', { name: 'Top authors' });
    expect(await within(authors).findByText(/Results appear here as your saved searches match/)).toBeVisible();
    expect(screen.queryByText(/arrive with/)).not.toBeInTheDocument();
  });

  it('shows a load error with Try Again, which reloads', async () => {
    let calls = 0;
    server(() => (++calls === 1 ? new Reply(400, { message: 'broken' }) : { data: full }));
    renderApp('/monitor/dashboard', { profile: testProfile() });
    const results = await screen.findByRole('region', { name: 'Results' });
    expect(await within(results).findByText('Chart load error')).toBeVisible();
    await user.click(within(results).getByRole('button', { name: 'Try Again' }));
    expect(await within(results).findByRole('link', { name: /1.2k results/ })).toBeVisible();
  });
});

describe('Get started', () => {
  const profile = testProfile();
  const guideKey = `sightline.getStarted.${profile.id}`;
  afterEach(() => localStorage.clear());

  it('suggests topics to a user without saved searches; one click and one save make the first search', async () => {
    let saved = false;
    const requests = fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/monitor/searches': () => ({ data: saved ? [testSearch(42, { value: 'protest' })] : [] }),
      'GET /api/v1/monitor/dashboard': { data: empty },
      'GET /api/v1/monitor/dashboard/layout': { data: everyWidget },
      'GET /api/v1/monitor/monitor-search-groups': {
        data: [testGroup(5, { name: 'Uncategorized', isSavedSearch: true })],
      },
      'GET /api/v1/filter-lists/': { data: [] },
      'GET /api/v1/monitor/searches/42/notification-settings': { data: [] },
      'POST /api/v1/monitor/monitor-search-groups': new Reply(201, { data: testGroup(9, { name: 'My searches' }) }),
      'POST /api/v1/monitor/searches': () => {
        saved = true;
        return new Reply(201, { data: testSearch(42, { value: 'protest', groupId: 9 }) });
      },
    });
    renderApp('/monitor/dashboard', { profile });
    const guide = await screen.findByRole('region', { name: 'Get started' });
    expect(
      within(guide)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['', 'Protests', 'Ransomware', 'Data breaches', 'Scams', 'Elections', 'Disasters', 'Your own keywords']);
    expect(within(guide).queryByRole('link', { name: 'Open the inbox' })).not.toBeInTheDocument();

    await user.click(within(guide).getByRole('button', { name: 'Protests' }));
    const dialog = await screen.findByRole('dialog', { name: 'New saved search' });
    expect(await within(dialog).findByLabelText('Keywords')).toHaveValue('protest');
    expect(within(dialog).getByLabelText(/Search name/)).toHaveValue('protest');
    expect(within(dialog).getByLabelText(/Name of the new group/)).toHaveValue('My searches');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await user.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // The guide stays for its next steps, on the new search.
    expect(await within(guide).findByText('“protest” is saved and runs on new posts.')).toBeInTheDocument();
    expect(within(guide).getByRole('link', { name: 'Open the inbox' })).toHaveAttribute(
      'href',
      '/monitor/matches/grid?monitorSearchIds=42',
    );
    expect(within(guide).getByRole('button', { name: 'Set an alert' })).toBeInTheDocument();
    expect(localStorage.getItem(guideKey)).toBe('started');
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/api/v1/monitor/monitor-search-groups',
      '/api/v1/monitor/searches',
    ]);
  });

  it('is put away for good by its close button', async () => {
    server({ data: empty }, []);
    const view = renderApp('/monitor/dashboard', { profile });
    const guide = await screen.findByRole('region', { name: 'Get started' });
    await user.click(within(guide).getByRole('button', { name: 'Dismiss the guide' }));
    expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument();
    expect(screen.getByText('No saved searches yet')).toBeInTheDocument();
    expect(localStorage.getItem(guideKey)).toBe('dismissed');

    view.unmount();
    renderApp('/monitor/dashboard', { profile });
    expect(await screen.findByText('No saved searches yet')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument();
    // The empty dashboard still offers the builder.
    await user.click(screen.getByRole('button', { name: 'Create a saved search' }));
    expect(await screen.findByRole('dialog', { name: 'New saved search' })).toBeInTheDocument();
  });

  it('opens the newest search’s alerts once begun, and counts its matches', async () => {
    localStorage.setItem(guideKey, 'started');
    fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/monitor/searches': {
        data: [testSearch(9, { value: 'Floods' }), testSearch(12, { value: 'Scams' })],
      },
      'GET /api/v1/monitor/dashboard': { data: full },
      'GET /api/v1/monitor/dashboard/layout': { data: everyWidget },
      'GET /api/v1/monitor/searches/12/notification-settings': { data: [] },
    });
    renderApp('/monitor/dashboard', { profile });
    const guide = await screen.findByRole('region', { name: 'Get started' });
    expect(await within(guide).findByText('1.2k matches so far.')).toBeInTheDocument();
    // Saved, and matches arrived; no alert is on yet.
    expect(within(guide).getAllByRole('img', { name: 'Done' })).toHaveLength(2);
    expect(within(guide).getAllByRole('img', { name: 'To do' })).toHaveLength(1);
    await user.click(within(guide).getByRole('button', { name: 'Set an alert' }));
    expect(await screen.findByRole('dialog', { name: 'Alerts of “Scams”' })).toBeInTheDocument();
  });

  it('does not show to a user who has saved searches and never began it', async () => {
    server({ data: full });
    renderApp('/monitor/dashboard', { profile });
    await screen.findByRole('region', { name: 'Results' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument());
  });
});
