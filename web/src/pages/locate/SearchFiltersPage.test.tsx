import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OBJECTS_DISABLED } from '../../components/locate/LocateFilters';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testChange, testFilterList } from '../../test/filterFixtures';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { FILTERS_LOAD_ERROR, SearchFiltersPage } from './SearchFiltersPage';

const user = userEvent.setup({ delay: null });

const spam = testFilterList(12, {
  name: 'Spam words',
  searches: [{ id: 9, name: 'Lyon docks' }],
});
const bots = testFilterList(13, {
  name: 'Known bots',
  type: 'author',
  kind: 'author_exclusion',
  keywords: [],
  authors: [{ id: 5, value: 'promo_bot' }],
  userPermissionLevel: 'view',
  owner: { id: 2, email: 'bo@example.com', username: 'bo' },
});

describe('search filters explorer', () => {
  it('shows the chosen list, finds lists by name or entry and narrows them by kind', async () => {
    fakeServer({ 'GET /api/v1/filter-lists/': { data: [spam, bots] } });
    const { router } = renderWithApp(<SearchFiltersPage />, { profile: testProfile(), path: '/locate/search-filters' });
    const nav = await screen.findByRole('navigation', { name: 'Filter lists' });
    expect(
      within(nav)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Spam wordsKeyword exclusion · 2 entries', 'Known botsAuthor exclusion · 1 entry']);
    const first = screen.getByRole('region', { name: 'Spam words' });
    expect(within(first).getByRole('list', { name: 'Entries' })).toHaveTextContent('giveawaypromo code');
    expect(within(first).getByRole('link', { name: 'Lyon docks' })).toHaveAttribute('href', '/monitor/9');
    expect(within(first).getByRole('link', { name: /Edit/ })).toHaveAttribute('href', '/monitor/filters/12');

    await user.click(within(nav).getByRole('button', { name: /Known bots/ }));
    const second = await screen.findByRole('region', { name: 'Known bots' });
    expect(second).toHaveTextContent('Your access: Can view');
    expect(second).toHaveTextContent('Owned by bo@example.com');
    expect(second).toHaveTextContent('No saved search uses this list yet.');
    expect(within(second).getByRole('link', { name: /Open/ })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?list=13');

    fireEvent.change(screen.getByLabelText('Find a list'), { target: { value: 'promo code' } });
    expect(within(nav).getAllByRole('button')).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Spam words' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Author exclusion' }));
    expect(screen.getByText('No list matches. Clear the words or choose All.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Find a list'), { target: { value: '' } });
    expect(within(screen.getByRole('navigation', { name: 'Filter lists' })).getAllByRole('button')).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Known bots' })).toBeInTheDocument();
  });

  it('says the spec’s message when the lists cannot be read', async () => {
    fakeServer({ 'GET /api/v1/filter-lists/': new Reply(500, { message: 'boom' }) });
    renderWithApp(<SearchFiltersPage />, { profile: testProfile(), path: '/locate/search-filters' });
    expect(await screen.findByText(FILTERS_LOAD_ERROR)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('offers to create one when there is none', async () => {
    fakeServer({ 'GET /api/v1/filter-lists/': { data: [] } });
    renderWithApp(<SearchFiltersPage />, { profile: testProfile(), path: '/locate/search-filters' });
    expect(await screen.findByText('No search filters yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Create search filter' })[0]).toHaveAttribute(
      'href',
      '/locate/search-filters/new',
    );
  });

  it('creates a list in the quick-search modal, without object detection, and chooses it', async () => {
    const created = testFilterList(15, { name: 'Scams' });
    const requests = fakeServer({
      'GET /api/v1/filter-lists/': { data: [spam] },
      'POST /api/v1/filter-lists/': new Reply(201, testChange(created, '1 keyword was removed: 1 duplicate.')),
    });
    const { router } = renderWithApp(<SearchFiltersPage creating />, {
      profile: testProfile(),
      path: '/locate/search-filters/new',
    });
    const dialog = await screen.findByRole('dialog', { name: 'Create search filter' });
    expect(dialog).toHaveTextContent(OBJECTS_DISABLED);
    await user.click(within(dialog).getByRole('combobox', { name: 'Kind' }));
    expect(screen.getByRole('option', { name: /Object detection/ })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: /Keyword inclusion/ }));

    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Scams' } });
    fireEvent.change(within(dialog).getByLabelText(/Keywords/), { target: { value: 'giveaway, prize draw' } });
    await user.click(within(dialog).getByRole('button', { name: 'Create filter list' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locate/search-filters'));
    expect(router.state.location.search).toBe('?list=15');
    expect(await screen.findByText('Search filter created. 1 keyword was removed: 1 duplicate.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Scams',
      type: 'keyword',
      inclusion: true,
      keywords: ['giveaway', 'prize draw'],
    });
  });

  it('closes the modal on Cancel without creating anything', async () => {
    const requests = fakeServer({ 'GET /api/v1/filter-lists/': { data: [spam] } });
    const { router } = renderWithApp(<SearchFiltersPage creating />, {
      profile: testProfile(),
      path: '/locate/search-filters/new',
    });
    const dialog = await screen.findByRole('dialog', { name: 'Create search filter' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locate/search-filters'));
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });
});
