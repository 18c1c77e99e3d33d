import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testGroup, testMatch, testProfile, testProviders } from '../../test/fixtures';
import { DATE_LINE_WARNING } from '../../components/searchBuilder/LocationField';
import { SearchBuilderProvider } from '../../components/searchBuilder/SearchBuilderProvider';
import { renderApp, renderWithApp } from '../../test/renderApp';
import { LocatePage } from './LocatePage';

const user = userEvent.setup({ delay: null });
const SEARCH = 'POST /api/v1/locate/search';
const BOX = 'POLYGON((4.7 45.7,4.9 45.7,4.9 45.8,4.7 45.8,4.7 45.7))';

const lyonPost = testMatch(
  1,
  {},
  { content_text: 'Crane down at the Lyon docks', location: { lat: 45.76, lon: 4.83 } },
).post;
const found = { data: { documents: [lyonPost], count: 1, totalCount: 1, searchId: '' } };

function server(routes = {}) {
  return fakeServer({ 'GET /api/v1/monitor/providers': { data: testProviders }, [SEARCH]: found, ...routes });
}

const searches = (requests: ReturnType<typeof fakeServer>) =>
  requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/locate/search');

describe('Locate', () => {
  it('says what to do before the first search, and what a search lacks', async () => {
    const requests = server();
    renderApp('/locate', { profile: testProfile() });
    expect(await screen.findByText('Search by place, words or author')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keyword' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByText('Enter keywords to search for.')).toBeInTheDocument();
    expect(searches(requests)).toHaveLength(0);
  });

  it('searches by keyword and lists the results', async () => {
    const requests = server();
    renderApp('/locate', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Keyword' }));
    await user.type(screen.getByRole('textbox', { name: 'Keywords' }), 'crane');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const results = await screen.findByRole('list', { name: 'Search results' });
    expect(within(results).getByText(/Lyon docks/)).toBeInTheDocument();
    expect(screen.getByText('1 result, most recent first')).toBeInTheDocument();
    expect(searches(requests)[0]?.body).toEqual({ type: 'keyword', keywords: 'crane' });
  });

  it('says when the newest posts searched held no match yet, and offers the older ones', async () => {
    server({
      [SEARCH]: {
        data: { documents: [], count: 0, totalCount: 0, totalCountIsEstimate: true, searchId: 'more' },
      },
    });
    renderApp('/locate', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Keyword' }));
    await user.type(screen.getByRole('textbox', { name: 'Keywords' }), '"rare phrase"');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(
      await screen.findByText('No results yet among the newest posts searched; load more to search older ones'),
    ).toBeInTheDocument();
    expect(screen.queryByText('No posts match')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /load more/i })).toBeInTheDocument();
  });

  it('applies filters only with Apply, and Clear all removes them', async () => {
    const requests = server();
    renderApp(`/locate?type=location&bounds=${encodeURIComponent(BOX)}`, { profile: testProfile() });
    await screen.findByText('1 result, most recent first');
    expect(searches(requests)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.click(screen.getByRole('radio', { name: 'Last week' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Search filters' })).not.toBeInTheDocument());
    expect(searches(requests)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.click(screen.getByRole('radio', { name: 'Last week' }));
    await user.click(screen.getByRole('radio', { name: 'Images only' }));
    await user.click(screen.getByRole('radio', { name: 'High only' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(searches(requests)).toHaveLength(2));
    const body = searches(requests)[1]?.body as { from: number; media: string; priority: string; type: string };
    expect(body.type).toBe('location');
    expect(body.media).toBe('images');
    expect(body.priority).toBe('high');
    expect(Date.now() - body.from).toBeGreaterThan(6.9 * 86_400_000);

    // Without filters it is the first search again, whose results are still at hand.
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByRole('radio', { name: 'All (last 30 days)' })).toBeChecked();
    // Posts are kept 30 days here: a month would be "all" again, three months more than is kept.
    expect(screen.queryByRole('radio', { name: 'Last month' })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Last 3 months' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('radiogroup', { name: 'Media' })).getByRole('radio', { name: 'Any' })).toBeChecked();
    expect(
      within(screen.getByRole('radiogroup', { name: 'Priority' })).getByRole('radio', { name: 'Any' }),
    ).toBeChecked();
    expect(searches(requests)).toHaveLength(2);
  });

  it('says in the filters menu that object-detection filters are disabled for quick search', async () => {
    server();
    renderApp(`/locate?type=location&bounds=${encodeURIComponent(BOX)}`, { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Filters' }));
    const filters = await screen.findByRole('group', { name: 'Search filters' });
    expect(within(filters).getByText('Objects in images')).toBeInTheDocument();
    expect(within(filters).getByText(/^Object-detection filters are disabled for quick search\./)).toBeInTheDocument();
  });

  it('sorts by most popular or most followers from the filters menu', async () => {
    const popular = { ...lyonPost, engagement: 1234, author_followers: 56_000 };
    const requests = server({ [SEARCH]: { data: { documents: [popular], count: 1, totalCount: 1, searchId: '' } } });
    renderApp(`/locate?type=location&bounds=${encodeURIComponent(BOX)}`, { profile: testProfile() });
    await screen.findByText('1 result, most recent first');
    // The card says what the orders go by.
    expect(screen.getByText(/1\.2k reactions · 56\.0k followers/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByRole('radio', { name: 'Most recent' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Most popular' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText('1 result, most popular first');
    expect(searches(requests)[1]?.body).toEqual({ type: 'location', bounds: BOX, sort: 'popular' });

    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.click(screen.getByRole('radio', { name: 'Most followers' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText('1 result, authors with most followers first');
    expect(searches(requests)[2]?.body).toEqual({ type: 'location', bounds: BOX, sort: 'followers' });

    // Most recent is the default, which the request leaves out: it is the first search again,
    // whose results are still at hand.
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.click(screen.getByRole('radio', { name: 'Most recent' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText('1 result, most recent first');
    expect(searches(requests)).toHaveLength(3);
  });

  it('groups the data sources by region or by type', async () => {
    server();
    renderApp(`/locate?type=location&bounds=${encodeURIComponent(BOX)}`, { profile: testProfile() });
    await screen.findByText('1 result, most recent first');
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    expect(within(screen.getByRole('group', { name: 'Europe' })).getByLabelText('VK')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'By type' }));
    expect(within(screen.getByRole('group', { name: 'Forums' })).getByLabelText('Reddit')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Image sharing' })).getByLabelText('Flickr')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Europe' })).not.toBeInTheDocument();
  });

  it('opens the builder’s test link as a compound search', async () => {
    const requests = server();
    const link = new URLSearchParams({
      address_bounds: BOX,
      keywords: 'crane',
      images_only: 'false',
      video_only: 'false',
    });
    renderApp(`/locate/quick-search?${link.toString()}`, { profile: testProfile() });
    await screen.findByText('1 result, most recent first');
    expect(searches(requests)[0]?.body).toEqual({ type: 'compound', keywords: 'crane', bounds: BOX });
    expect(screen.getByRole('button', { name: 'Compound' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('keeps the builder’s boards from its test link, and searches without one removed', async () => {
    const requests = server();
    const link = new URLSearchParams({ keywords: 'crane', boards: 'r/lyon,r/paris', search_filters: '' });
    renderApp(`/locate/quick-search?${link.toString()}`, { profile: testProfile() });
    await screen.findByText('1 result, most recent first');
    expect(searches(requests)[0]?.body).toEqual({ type: 'keyword', keywords: 'crane', boards: ['r/lyon', 'r/paris'] });
    const paris = screen.getByRole('button', { name: 'r/paris' });
    expect(screen.getByRole('button', { name: 'r/lyon' })).toBeInTheDocument();
    await user.type(paris, '{Backspace}');
    await waitFor(() => expect(searches(requests)).toHaveLength(2));
    expect(searches(requests)[1]?.body).toEqual({ type: 'keyword', keywords: 'crane', boards: ['r/lyon'] });
    expect(screen.queryByRole('button', { name: 'r/paris' })).not.toBeInTheDocument();
  });

  const lists = [
    { id: 3, name: 'No spam', type: 'keyword', inclusion: false, userPermissionLevel: 'owner' },
    { id: 4, name: 'Not bots', type: 'author', inclusion: false, userPermissionLevel: 'view' },
    { id: 5, name: 'Drones', type: 'object_detection', inclusion: true, userPermissionLevel: 'owner' },
  ];

  it('keeps the builder’s filter lists from its test link, and Save search carries back those the user owns', async () => {
    const requests = server({
      'GET /api/v1/filter-lists/': { data: lists },
      'GET /api/v1/monitor/monitor-search-groups': { data: [testGroup(3, { name: 'Protests' })] },
    });
    const link = new URLSearchParams({ keywords: 'crane', search_filters: '3,4' });
    renderApp(`/locate/quick-search?${link.toString()}`, { profile: testProfile() });
    await screen.findByText('1 result, most recent first');
    expect(searches(requests)[0]?.body).toEqual({ type: 'keyword', keywords: 'crane', searchFilters: [3, 4] });
    expect(await screen.findByRole('button', { name: 'No spam (keyword exclusion)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Not bots (author exclusion)' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save search' }));
    const dialog = await screen.findByRole('dialog');
    // Only a list's owner may attach it to a saved search: the list the user only views stays out.
    expect(await within(dialog).findByText('1 selected')).toBeInTheDocument();
    await user.click(within(dialog).getByText('Search filters'));
    expect(within(dialog).getByRole('checkbox', { name: /No spam/ })).toBeChecked();
  });

  it('chooses filter lists in the filters menu, keeps them in its address, and searches without one removed', async () => {
    const requests = server({ 'GET /api/v1/filter-lists/': { data: lists } });
    const { router } = renderApp('/locate?type=keyword&q=crane', { profile: testProfile() });
    await screen.findByText('1 result, most recent first');
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    const menu = screen.getByRole('group', { name: 'Search filters' });
    const listGroup = within(menu).getByRole('group', { name: 'Search filter lists' });
    // Object lists are not offered: object-detection filters are disabled for quick search.
    expect(within(listGroup).queryByRole('checkbox', { name: /Drones/ })).not.toBeInTheDocument();
    await user.click(within(listGroup).getByRole('checkbox', { name: 'Not bots (author exclusion)' }));
    await user.click(within(menu).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(searches(requests)).toHaveLength(2));
    expect(searches(requests)[1]?.body).toEqual({ type: 'keyword', keywords: 'crane', searchFilters: [4] });
    expect(router.state.location.search).toContain('filters=4');
    // Without the list the search is the first one again, answered from its cache.
    await user.type(screen.getByRole('button', { name: 'Not bots (author exclusion)' }), '{Backspace}');
    await waitFor(() => expect(router.state.location.search).not.toContain('filters='));
    expect(screen.queryByRole('button', { name: 'Not bots (author exclusion)' })).not.toBeInTheDocument();
    expect(searches(requests).map((r) => r.body)).toEqual([
      { type: 'keyword', keywords: 'crane' },
      { type: 'keyword', keywords: 'crane', searchFilters: [4] },
    ]);
  });

  it('says when a filter list cannot be used', async () => {
    const message = 'Error accessing Search Filter(s)';
    server({
      'GET /api/v1/filter-lists/': { data: lists },
      [SEARCH]: new Reply(422, { message, errors: { searchFilters: ['The filter list was not found.'] } }),
    });
    renderApp('/locate?type=keyword&q=crane&filters=9', { profile: testProfile() });
    expect(await screen.findByText(`${message}: The filter list was not found.`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Filter list 9' })).toBeInTheDocument();
  });

  it('says why a search was refused', async () => {
    server({ [SEARCH]: new Reply(403, { message: 'Your subscription does not include Locate.' }) });
    renderApp(`/locate?type=location&bounds=${encodeURIComponent(BOX)}`, { profile: testProfile() });
    expect(await screen.findByText('Your subscription does not include Locate.')).toBeInTheDocument();
  });

  it('says which data sources cannot run the search, instead of an empty list, with nothing to retry', async () => {
    const message = 'Author search is not supported by Facebook.';
    server({ [SEARCH]: new Reply(422, { message, errors: { author: [message] } }) });
    renderApp('/locate?type=author&author=ana&providers=facebook', { profile: testProfile() });
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByText('No posts match')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('offers to try again a search the server could not run just now', async () => {
    const message = 'Temporarily unable to run a search. Try again in a couple seconds.';
    server({ [SEARCH]: new Reply(503, { message }) });
    renderApp(`/locate?type=location&bounds=${encodeURIComponent(BOX)}`, { profile: testProfile() });
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Search Error' })).toBeInTheDocument();
    expect(screen.getByText('Error 503')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

// Search-side.md section 6: a search crossing the date line triggers a warning; it does not block.
describe('Locate’s place', () => {
  const FIJI =
    'MULTIPOLYGON(((177 -19,180 -19,180 -16,177 -16,177 -19)),((-180 -19,-179 -19,-179 -16,-180 -16,-180 -19)))';
  it.each([
    ['warns for Fiji, whose area crosses the date line', 'Fiji', FIJI, true],
    ['does not warn for Lyon', 'Lyon', BOX, false],
  ])('%s', async (_title, name, bounds, warns) => {
    const requests = server({
      'GET /api/v1/geocode/autocomplete': { data: [{ address: name, name, kind: 'country' }] },
      'GET /api/v1/geocode/address': {
        data: { address: name, name, bounds, point: { lat: 0, lon: 0 }, is_address_in_us_territory: false },
      },
    });
    renderWithApp(
      <SearchBuilderProvider>
        <LocatePage />
      </SearchBuilderProvider>,
      { profile: testProfile(), path: '/locate' },
    );
    await user.click(await screen.findByRole('button', { name: 'Location' }));
    await user.type(screen.getByRole('combobox', { name: 'Place' }), name.slice(0, 3));
    await user.click(await screen.findByRole('option', { name }));
    await waitFor(() => expect(requests.some((r) => r.path === '/api/v1/geocode/address')).toBe(true));
    if (warns) expect(await screen.findByText(DATE_LINE_WARNING)).toBeInTheDocument();
    else expect(screen.queryByText(DATE_LINE_WARNING)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches(requests)[0]?.body).toEqual({ type: 'location', bounds }));
  });
});
