import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FilterList } from '../../api/filters';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testChange, testFilterList } from '../../test/filterFixtures';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });

function openList(list: FilterList, routes: Record<string, unknown> = {}) {
  const requests = fakeServer({ [`GET /api/v1/filter-lists/${list.id}`]: { data: list }, ...routes });
  const view = renderApp(`/monitor/filters/${list.id}`, { profile: testProfile() });
  return { requests, ...view };
}

function chooseFile(file: File) {
  fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [file] } });
}

describe('filter list page', () => {
  it('shows the entries, the access and the saved searches using the list', async () => {
    openList(testFilterList(4, { name: 'Spam words', searches: [{ id: 9, name: 'Bridge closures' }] }));
    expect(await screen.findByRole('heading', { name: 'Spam words', level: 1 })).toBeInTheDocument();
    const entries = screen.getByRole('list', { name: 'Entries' });
    expect(
      within(entries)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual(['giveaway', 'promo code']);
    expect(screen.getByRole('region', { name: 'Access' })).toHaveTextContent('Your access: Owner');
    expect(screen.getByRole('link', { name: 'Bridge closures' })).toHaveAttribute('href', '/monitor/9');
    expect(screen.queryByText(/cannot be opened yet/)).not.toBeInTheDocument();
  });

  it('adds keywords and shows which were left out', async () => {
    const list = testFilterList(4);
    const grown = testFilterList(4, { keywords: [...list.keywords, { id: 7, value: 'coupon' }] });
    const { requests } = openList(list, {
      'POST /api/v1/filter-lists/4/keyword': testChange(
        grown,
        '2 keywords were removed: 1 duplicate and 1 shorter than 3 characters.',
      ),
    });
    await user.type(await screen.findByLabelText('Add keywords'), 'coupon, giveaway, ab');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(
      await screen.findByText('2 keywords were removed: 1 duplicate and 1 shorter than 3 characters.'),
    ).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ keywords: ['coupon', 'giveaway', 'ab'] });
    expect(within(screen.getByRole('list', { name: 'Entries' })).getByText('coupon')).toBeInTheDocument();
  });

  it('removes an entry', async () => {
    const list = testFilterList(4);
    const { requests } = openList(list, {
      'DELETE /api/v1/filter-lists/4/keyword': {
        data: testFilterList(4, { keywords: [{ id: 2, value: 'promo code' }] }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Remove giveaway' }));
    await waitFor(() => expect(screen.queryByText('giveaway')).not.toBeInTheDocument());
    expect(requests.find((r) => r.method === 'DELETE')?.body).toEqual({ ids: [1] });
  });

  it('uploads a CSV file and reports what was added and stripped', async () => {
    const list = testFilterList(4);
    const grown = testFilterList(4, {
      keywords: [...list.keywords, { id: 8, value: 'coupon' }, { id: 9, value: 'free gift' }],
    });
    const { requests } = openList(list, {
      'POST /api/v1/filter-lists/4/upload': testChange(grown, '1 keyword was removed: 1 duplicate.'),
    });
    await screen.findByRole('button', { name: 'Upload CSV' });
    chooseFile(new File(['keyword\ncoupon\nfree gift\ngiveaway\n'], 'spam.csv', { type: 'text/csv' }));
    expect(
      await screen.findByText('2 keywords added from spam.csv. 1 keyword was removed: 1 duplicate.'),
    ).toBeInTheDocument();
    expect(requests.find((r) => r.path.endsWith('/upload'))?.body).toBe('keyword\ncoupon\nfree gift\ngiveaway\n');
  });

  it('refuses a file that is not CSV and shows the server’s reason for a bad one', async () => {
    const { requests } = openList(testFilterList(4), {
      'POST /api/v1/filter-lists/4/upload': new Reply(422, {
        message: 'The given data was invalid.',
        errors: { file: ['The file adds no new valid keyword.'] },
      }),
    });
    await screen.findByRole('button', { name: 'Upload CSV' });
    chooseFile(new File(['coupon'], 'spam.txt', { type: 'text/plain' }));
    expect(await screen.findByText('The file must be a CSV file (.csv).')).toBeInTheDocument();
    expect(requests.some((r) => r.path.endsWith('/upload'))).toBe(false);
    chooseFile(new File(['giveaway'], 'again.csv', { type: 'text/csv' }));
    expect(await screen.findByText('The file adds no new valid keyword.')).toBeInTheDocument();
  });

  it('lets only the owner switch inclusion', async () => {
    openList(testFilterList(4, { userPermissionLevel: 'edit' }));
    expect(
      await screen.findByText('Only the list’s owner can switch between inclusion and exclusion.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Inclusion' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByLabelText(/Name/)).toBeEnabled();
  });

  it('shows a viewer the list without the controls that change it', async () => {
    openList(testFilterList(4, { userPermissionLevel: 'view' }));
    expect(await screen.findByText(/You can view this list/)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Access' })).toHaveTextContent('Your access: Can view');
    expect(screen.queryByRole('button', { name: 'Upload CSV' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove giveaway' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/Name/)).toBeDisabled();
  });

  it('renames the list', async () => {
    const { requests } = openList(testFilterList(4, { name: 'Spam words' }), {
      'PATCH /api/v1/filter-lists/4': { data: testFilterList(4, { name: 'Spam' }) },
    });
    const name = await screen.findByLabelText(/Name/);
    await user.clear(name);
    await user.type(name, 'Spam');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Filter list saved')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ name: 'Spam' });
  });

  it('refuses delete to a non-owner with the spec’s wording and sends nothing', async () => {
    const { requests } = openList(testFilterList(4, { userPermissionLevel: 'edit' }));
    await user.click(await screen.findByRole('button', { name: 'Delete filter list' }));
    expect(
      screen.getByText('You are unable to delete this filter. You must be the filter owner to do so.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  it('deletes for the owner after confirming, naming the searches it leaves', async () => {
    const { requests, router } = openList(
      testFilterList(4, { name: 'Spam words', searches: [{ id: 9, name: 'Bridge closures' }] }),
      {
        'DELETE /api/v1/filter-lists/4': { data: { deleted: true } },
        'GET /api/v1/filter-lists/': { data: [] },
        'GET /api/v1/prebuilt-filter-lists/': { data: [] },
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Delete filter list' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Spam words”?' });
    expect(dialog).toHaveTextContent('It is removed from the 1 saved search that use it');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/filters'));
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/v1/filter-lists/4')).toBe(true);
  });

  it('says when the list does not exist', async () => {
    fakeServer({ 'GET /api/v1/filter-lists/77': new Reply(404, { message: 'The requested resource was not found.' }) });
    renderApp('/monitor/filters/77', { profile: testProfile() });
    expect(await screen.findByText('This filter list does not exist')).toBeInTheDocument();
  });
});
