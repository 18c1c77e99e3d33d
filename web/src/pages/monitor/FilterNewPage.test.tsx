import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testChange, testFilterList } from '../../test/filterFixtures';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { FilterNewPage } from './FilterNewPage';

const user = userEvent.setup({ delay: null });

describe('new filter list page', () => {
  it('creates a list, reports stripped entries and opens the list', async () => {
    const created = testFilterList(15, { name: 'Scams' });
    const requests = fakeServer({
      'POST /api/v1/filter-lists/': new Reply(201, testChange(created, '1 keyword was removed: 1 duplicate.')),
      'GET /api/v1/filter-lists/15': { data: created },
    });
    const { router } = renderWithApp(<FilterNewPage />, { profile: testProfile(), path: '/monitor/filters/new' });
    fireEvent.change(await screen.findByLabelText(/Name/), { target: { value: 'Scams' } });
    fireEvent.change(screen.getByLabelText(/Keywords/), { target: { value: 'giveaway\npromo code\ngiveaway' } });
    await user.click(screen.getByRole('button', { name: 'Create filter list' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/filters/15'));
    expect(await screen.findByText('Filter list created. 1 keyword was removed: 1 duplicate.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Scams',
      type: 'keyword',
      inclusion: false,
      keywords: ['giveaway', 'promo code', 'giveaway'],
    });
  });

  it('asks for a name and an entry before sending', async () => {
    const requests = fakeServer({});
    renderWithApp(<FilterNewPage />, { profile: testProfile(), path: '/monitor/filters/new' });
    await user.click(await screen.findByRole('button', { name: 'Create filter list' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Add at least one entry.')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('suggests supported objects for an object-detection list', async () => {
    const requests = fakeServer({
      'GET /api/v1/object-detection-typeahead': (r: { query: URLSearchParams }) => ({
        data: r.query.get('q') === 'kni' ? [{ keyword: 'knife', uses: 3 }] : [],
      }),
      'POST /api/v1/filter-lists/': new Reply(
        201,
        testChange(testFilterList(16, { type: 'object_detection', kind: 'object_detection', keywords: [] })),
      ),
      'POST /api/v1/object-detection-typeahead': { data: { keyword: 'knife', uses: 4 } },
    });
    renderWithApp(<FilterNewPage />, { profile: testProfile(), path: '/monitor/filters/new' });
    fireEvent.change(await screen.findByLabelText(/Name/), { target: { value: 'Weapons' } });
    await user.click(screen.getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByRole('option', { name: /Object detection/ }));
    await user.type(screen.getByRole('combobox', { name: 'Objects' }), 'kni');
    await user.click(await screen.findByRole('option', { name: 'knife' }));
    await user.click(screen.getByRole('button', { name: 'Create filter list' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST' && r.path === '/api/v1/filter-lists/')?.body).toEqual({
        name: 'Weapons',
        type: 'object_detection',
        objects: ['knife'],
      }),
    );
  });
});
