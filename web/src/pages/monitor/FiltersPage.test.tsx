import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testChange, testFilterList, testPrebuilt } from '../../test/filterFixtures';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });

describe('search filters page', () => {
  it('lists each filter list with its type, entries, owner, access and the searches using it', async () => {
    fakeServer({
      'GET /api/v1/filter-lists/': {
        data: [
          testFilterList(4, { name: 'Spam words', searches: [{ id: 9, name: 'Bridge closures' }] }),
          testFilterList(5, {
            name: 'Bots',
            type: 'author',
            kind: 'author_exclusion',
            keywords: [],
            authors: [{ id: 3, value: '@bot' }],
            owner: { id: 2, email: 'ben@example.com', username: 'ben' },
            userPermissionLevel: 'view',
          }),
        ],
      },
      'GET /api/v1/prebuilt-filter-lists/': { data: [testPrebuilt] },
    });
    renderApp('/monitor/filters', { profile: testProfile() });
    const table = await screen.findByRole('table', { name: 'Filter lists' });
    const spam = within(table).getByRole('row', { name: /Spam words/ });
    expect(spam).toHaveTextContent('Keyword exclusion');
    expect(spam).toHaveTextContent('2');
    expect(spam).toHaveTextContent('ana@example.com');
    expect(spam).toHaveTextContent('Owner');
    expect(spam).toHaveTextContent('1 saved search');
    expect(within(spam).getByRole('link', { name: 'Spam words' })).toHaveAttribute('href', '/monitor/filters/4');
    const bots = within(table).getByRole('row', { name: /Bots/ });
    expect(bots).toHaveTextContent('Author exclusion');
    expect(bots).toHaveTextContent('Can view');
    expect(bots).toHaveTextContent('No saved search');
    expect(await screen.findByRole('article', { name: 'Spam and promotions' })).toHaveTextContent('3 entries');
    expect(screen.queryByText(/arrive with/)).not.toBeInTheDocument();
  });

  it('says what to do when there is no list', async () => {
    fakeServer({ 'GET /api/v1/filter-lists/': { data: [] }, 'GET /api/v1/prebuilt-filter-lists/': { data: [] } });
    renderApp('/monitor/filters', { profile: testProfile() });
    expect(await screen.findByText('No filter lists yet')).toBeInTheDocument();
    expect(screen.getByText(/start from one of the prebuilt lists/)).toBeInTheDocument();
  });

  it('offers to try again when the lists fail to load', async () => {
    fakeServer({
      // A 4xx is not retried, so the error shows at once.
      'GET /api/v1/filter-lists/': new Reply(429, { message: 'Too many requests. Please wait a moment.' }),
      'GET /api/v1/prebuilt-filter-lists/': { data: [] },
    });
    renderApp('/monitor/filters', { profile: testProfile() });
    expect(await screen.findByText(/could not be loaded: Too many requests/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('copies a prebuilt list into a list the user owns and opens it', async () => {
    const copy = testFilterList(12, { name: 'Spam and promotions' });
    const requests = fakeServer({
      'GET /api/v1/filter-lists/': { data: [] },
      'GET /api/v1/prebuilt-filter-lists/': { data: [testPrebuilt] },
      'POST /api/v1/filter-lists/': new Reply(201, testChange(copy)),
      'GET /api/v1/filter-lists/12': { data: copy },
    });
    const { router } = renderApp('/monitor/filters', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Use this list: Spam and promotions' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/filters/12'));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Spam and promotions',
      type: 'keyword',
      inclusion: false,
      keywords: ['giveaway', 'discount code', 'free followers'],
    });
  });
});
