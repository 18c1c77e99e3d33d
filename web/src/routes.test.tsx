import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPage } from './lib/navigation';
import { fakeServer } from './test/fakeServer';
import { testFilterList } from './test/filterFixtures';
import { testGroup, testProfile, testSearch } from './test/fixtures';
import { renderApp } from './test/renderApp';
import { testStory } from './test/storyFixtures';

vi.mock('./lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./lib/navigation')>()),
  loadPage: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(loadPage).mockClear();
  // Only what the headings need answers; everything else stays loading: these tests are about routes.
  fakeServer({
    'GET /api/v1/monitor/monitor-search-groups/7': { data: { ...testGroup(7, { name: 'Protests' }), searches: [] } },
    'GET /api/v1/monitor/searches/9': { data: testSearch(9, { value: 'Bridge closures' }) },
    'GET /api/v1/filter-lists/12': { data: testFilterList(12, { name: 'Spam words' }) },
    'GET /api/v1/stories/s1': { data: testStory('s1') },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('routing table', () => {
  const cases: { path: string; wantPath: string; wantHeading: string }[] = [
    { path: '/', wantPath: '/monitor/dashboard', wantHeading: 'Dashboard' },
    { path: '/monitor', wantPath: '/monitor/dashboard', wantHeading: 'Dashboard' },
    { path: '/assets', wantPath: '/assets/dashboard', wantHeading: 'Dashboard' },
    { path: '/monitor/filters', wantPath: '/monitor/filters', wantHeading: 'Search filters' },
    { path: '/monitor/filters/new', wantPath: '/monitor/filters/new', wantHeading: 'New filter list' },
    { path: '/monitor/filters/12', wantPath: '/monitor/filters/12', wantHeading: 'Spam words' },
    { path: '/monitor/configurations', wantPath: '/monitor/configurations', wantHeading: 'Location configurations' },
    { path: '/monitor/assets', wantPath: '/monitor/assets', wantHeading: 'Assets' },
    { path: '/monitor/groups', wantPath: '/monitor/groups', wantHeading: 'Search groups' },
    { path: '/assets/groups/7', wantPath: '/assets/groups/7', wantHeading: 'Protests' },
    { path: '/monitor/matches', wantPath: '/monitor/matches/grid', wantHeading: 'Inbox' },
    { path: '/assets/matches', wantPath: '/assets/matches/grid', wantHeading: 'Inbox' },
    { path: '/monitor/matches/list', wantPath: '/monitor/matches/list', wantHeading: 'Inbox' },
    { path: '/monitor/matches/map', wantPath: '/monitor/matches/map', wantHeading: 'Inbox' },
    { path: '/monitor/matches/stories', wantPath: '/monitor/matches/stories', wantHeading: 'Inbox' },
    { path: '/assets/stories/s1', wantPath: '/assets/stories/s1', wantHeading: 'The Erasmus bridge is closed' },
    { path: '/monitor/9', wantPath: '/monitor/9', wantHeading: 'Bridge closures' },
    { path: '/monitor/9/map', wantPath: '/monitor/9/map', wantHeading: 'Bridge closures' },
    { path: '/monitor/abc123', wantPath: '/monitor/abc123', wantHeading: 'You seem lost' },
    { path: '/monitor/no-such/route/here', wantPath: '/monitor/no-such/route/here', wantHeading: 'You seem lost' },
    { path: '/settings', wantPath: '/settings', wantHeading: 'Settings' },
    { path: '/locate', wantPath: '/locate', wantHeading: 'Locate' },
    { path: '/locate/search-filters', wantPath: '/locate/search-filters', wantHeading: 'Search filters' },
    { path: '/compliance', wantPath: '/compliance', wantHeading: 'Compliance is not set up' },
    { path: '/rfi', wantPath: '/rfi', wantHeading: 'My RFIs is not set up' },
    { path: '/cti', wantPath: '/cti', wantHeading: 'Intel Reports is not set up' },
    { path: '/404', wantPath: '/404', wantHeading: 'You seem lost' },
  ];
  for (const c of cases) {
    it(`${c.path} shows ${c.wantHeading}`, async () => {
      const { router } = renderApp(c.path, { profile: testProfile() });
      expect(await screen.findByRole('heading', { level: 1, name: c.wantHeading })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe(c.wantPath);
    });
  }

  it('keeps the search text when matches redirects to the grid', async () => {
    const { router } = renderApp('/monitor/matches?searchText=leak', { profile: testProfile() });
    await screen.findByRole('heading', { level: 1, name: 'Inbox' });
    expect(router.state.location.pathname).toBe('/monitor/matches/grid');
    expect(router.state.location.search).toBe('?searchText=leak');
  });

  it('switches inbox views without losing the search text', async () => {
    const { router } = renderApp('/monitor/matches/grid?searchText=leak', { profile: testProfile() });
    await userEvent.click(await screen.findByRole('button', { name: 'Map' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/matches/map'));
    expect(router.state.location.search).toBe('?searchText=leak');
    await userEvent.click(screen.getByRole('button', { name: 'Stories' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/matches/stories'));
    expect(router.state.location.search).toBe('?searchText=leak');
  });
});

describe("other products' portals", () => {
  // The server redirects a portal's path when it has the address; the app sees it otherwise.
  it('says a portal without an address is not set up, and loads nothing', async () => {
    renderApp('/rfi', { profile: testProfile({ acl: { ...testProfile().acl, rfi: true } }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'My RFIs is not set up' })).toBeInTheDocument();
    expect(screen.getByText(/not connected to My RFIs/)).toBeInTheDocument();
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('hands a configured portal to the server with a full page load', async () => {
    const base = testProfile();
    renderApp('/cti', {
      profile: {
        ...base,
        acl: { ...base.acl, intel_reports: true },
        portals: { ...base.portals, intel_reports: true },
      },
    });
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/cti'));
  });

  it('says when the user has no access to a configured portal', async () => {
    const base = testProfile();
    renderApp('/rfi', { profile: { ...base, portals: { ...base.portals, rfi: true } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'No access to My RFIs' })).toBeInTheDocument();
    expect(loadPage).not.toHaveBeenCalled();
  });
});

describe('404 page', () => {
  it('says the page is not available, with the code, a way back and a way to ask for help', async () => {
    renderApp('/monitor/no-such/route/here', { profile: testProfile() });
    expect(await screen.findByText('The page you were attempting to view is not available!')).toBeInTheDocument();
    expect(screen.getByText('Error 404')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      'mailto:support@example.test',
    );
  });

  it('goes home when there is no page to go back to', async () => {
    const { router } = renderApp('/no-such-area', { profile: testProfile() });
    await userEvent.click(await screen.findByRole('button', { name: 'Go Back' }));
    // The test document starts every test with a one-entry history.
    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/dashboard'));
    expect(loadPage).not.toHaveBeenCalled();
  });
});

describe('top bar search', () => {
  it('refuses an empty search', async () => {
    const { router } = renderApp('/monitor/groups', { profile: testProfile() });
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search matches' }), '   {Enter}');
    expect(screen.getByText('Search cannot be empty')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/monitor/groups');
  });

  it('opens the inbox grid from other Monitor screens', async () => {
    const { router } = renderApp('/monitor/groups', { profile: testProfile() });
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search matches' }), 'dark market{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/matches/grid'));
    expect(new URLSearchParams(router.state.location.search).get('searchText')).toBe('dark market');
  });

  it('reads the search text from the address when the page loads', async () => {
    renderApp('/monitor/matches/list?searchText=phishing', { profile: testProfile() });
    expect(await screen.findByRole('searchbox', { name: 'Search matches' })).toHaveValue('phishing');
  });

  it('is shown on Monitor only', async () => {
    renderApp('/settings', { profile: testProfile() });
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    expect(screen.queryByRole('searchbox', { name: 'Search matches' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New saved search' })).not.toBeInTheDocument();
  });
});

describe('top bar', () => {
  it('opens the search builder', async () => {
    renderApp('/monitor/dashboard', { profile: testProfile() });
    await userEvent.click(await screen.findByRole('button', { name: 'New saved search' }));
    expect(await screen.findByRole('dialog', { name: 'New saved search' })).toBeInTheDocument();
  });

  it('opens the help drawer with the tenant support address', async () => {
    renderApp('/monitor/dashboard', { profile: testProfile() });
    await userEvent.click(await screen.findByRole('button', { name: 'Help and support' }));
    const drawer = await screen.findByRole('dialog', { name: 'Help and support' });
    expect(drawer).toHaveTextContent('Write to support@example.test. We reply within 2 to 3 business days.');
    expect(screen.getByRole('link', { name: /Learning resources/ })).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: /Help centre/ })).toHaveAttribute('target', '_blank');
  });

  it('leads back to Beacon’s home from Beacon’s other pages', async () => {
    const { router } = renderApp('/history', { profile: testProfile() });
    await userEvent.click(await screen.findByRole('link', { name: 'Beacon home' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/beacon'));
    expect(screen.queryByRole('link', { name: 'Beacon home' })).not.toBeInTheDocument();
  });

  it('leads back to search from the search-filters routes only', async () => {
    const { router } = renderApp('/monitor/filters/new', { profile: testProfile() });
    await userEvent.click(await screen.findByRole('link', { name: 'Back to search' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/beacon'));
    expect(screen.queryByRole('link', { name: 'Back to search' })).not.toBeInTheDocument();
    await router.navigate('/monitor/dashboard');
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(screen.queryByRole('link', { name: 'Back to search' })).not.toBeInTheDocument();
    // Locate's explorer leads back to Locate's search.
    await router.navigate('/locate/search-filters');
    await userEvent.click(await screen.findByRole('link', { name: 'Back to search' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locate'));
  });

  it('says there are no announcements', async () => {
    renderApp('/monitor/dashboard', { profile: testProfile() });
    await userEvent.click(await screen.findByRole('button', { name: 'Announcements' }));
    expect(await screen.findByRole('dialog', { name: 'Announcements' })).toHaveTextContent(
      'There are no announcements right now.',
    );
  });

  it('lists the entitled products in the cross-product menu', async () => {
    const profile = testProfile();
    profile.organization.feature_flags = { beacon_sunset: true };
    renderApp('/monitor/dashboard', { profile });
    await userEvent.click(await screen.findByRole('button', { name: 'Sightline products' }));
    const menu = await screen.findByRole('navigation', { name: 'Products menu' });
    expect(Array.from(menu.querySelectorAll('a')).map((link) => link.textContent)).toEqual([
      'Locate',
      'Monitor',
      'Cases',
      'Settings',
      'Logout',
    ]);
  });
});
