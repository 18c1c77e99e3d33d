import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LocationConfigurationDetail } from '../../api/configurations';
import { Reply, type Request, fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });
const LIST = 'GET /api/v1/configurations-manager/configurations';

const lyonBounds = {
  type: 'Feature' as const,
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [4.77, 45.7],
        [4.9, 45.7],
        [4.9, 45.81],
        [4.77, 45.81],
        [4.77, 45.7],
      ],
    ],
  },
  properties: {},
};

function configuration(id: number, overrides: Partial<LocationConfigurationDetail> = {}): LocationConfigurationDetail {
  return {
    id,
    fpid: `fp${id}`,
    name: `Site ${id}`,
    address: 'Lyon, Auvergne-Rhône-Alpes, France',
    address_bounds: lyonBounds,
    center: { lat: 45.755, lon: 4.835 },
    point: null,
    radius_meters: 8200,
    radius_is_default: true,
    owner: { id: 1, email: 'ana@example.com', username: 'ana' },
    canEdit: true,
    created_at: 1_700_000_000,
    updated_at: 1_700_000_000,
    ...overrides,
  };
}

function page(items: LocationConfigurationDetail[], total = items.length, current = 0) {
  return { data: items, meta: { current_page: current, last_page: Math.max(0, Math.ceil(total / 10) - 1), total } };
}

describe('location configurations page', () => {
  it('lists ten a page from page 0 and asks the server for the next page and for a name', async () => {
    const requests = fakeServer({
      [LIST]: (r: Request) =>
        r.query.get('q') === 'depot'
          ? page([configuration(30, { name: 'North depot' })], 1)
          : page(
              Array.from({ length: 10 }, (_, i) => configuration(Number(r.query.get('page')) * 10 + i + 1)),
              12,
              Number(r.query.get('page')),
            ),
    });
    renderApp('/monitor/configurations', { profile: testProfile() });
    const table = await screen.findByRole('table', { name: 'Location configurations' });
    expect(within(table).getByRole('row', { name: /Site 1 Lyon/ })).toHaveTextContent('ana@example.com');
    expect(requests.find((r) => r.path.endsWith('/configurations'))?.query.get('page')).toBe('0');
    expect(requests.find((r) => r.path.endsWith('/configurations'))?.query.get('limit')).toBe('10');

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    // The table may be drawn anew for the next page, so the page is searched, not the old table.
    expect(await screen.findByText('Site 11')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Search location configurations' }), 'depot');
    expect(await screen.findByText('North depot')).toBeInTheDocument();
    expect(requests.at(-1)?.query.get('page')).toBe('0');
  });

  it('says what to do when there is none', async () => {
    fakeServer({ [LIST]: page([]) });
    renderApp('/monitor/configurations', { profile: testProfile() });
    expect(await screen.findByText('No location configurations yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add the first place' })).toBeInTheDocument();
    expect(screen.queryByText(/arrive with/)).not.toBeInTheDocument();
  });

  it('creates one from a suggested address with a radius, drawing its bounds before saving', async () => {
    const requests = fakeServer({
      [LIST]: page([]),
      'GET /api/v1/geocode/autocomplete': {
        data: [{ address: 'Lyon, Auvergne-Rhône-Alpes, France', name: 'Lyon', kind: 'city' }],
      },
      'GET /api/v1/geocode/address': {
        data: {
          address: 'Lyon, Auvergne-Rhône-Alpes, France',
          name: 'Lyon',
          bounds: 'POLYGON((4.77 45.7,4.9 45.7,4.9 45.81,4.77 45.81,4.77 45.7))',
          point: { lat: 45.76, lon: 4.83 },
          is_address_in_us_territory: false,
        },
      },
      'GET /api/v1/configurations-manager/geocode': { data: lyonBounds },
      'POST /api/v1/configurations-manager/configurations': { data: configuration(7, { name: 'Head office' }) },
    });
    renderApp('/monitor/configurations', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Add the first place' }));
    const dialog = await screen.findByRole('dialog', { name: 'New location configuration' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Head office');
    await user.type(within(dialog).getByRole('combobox', { name: 'Address' }), 'Lyon');
    await user.click(await screen.findByRole('option', { name: 'Lyon, Auvergne-Rhône-Alpes, France' }));
    expect(
      await within(dialog).findByRole('img', { name: 'Bounds of Lyon, Auvergne-Rhône-Alpes, France' }),
    ).toBeInTheDocument();
    // The default radius holds the drawn bounds: about 8 km for Lyon's box.
    expect(within(dialog).getByText(/^Leave empty for 7\.9 km, which covers the whole place/)).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Proximity radius (km)' }), '2.5');

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('“Head office” added')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Head office',
      address: 'Lyon, Auvergne-Rhône-Alpes, France',
      radius_meters: 2500,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the server’s address error and the Asset Limit dialog', async () => {
    let calls = 0;
    fakeServer({
      [LIST]: page([configuration(1)]),
      'POST /api/v1/configurations-manager/configurations': () =>
        ++calls === 1
          ? new Reply(422, {
              message: 'We could not find this address.',
              errors: { address: ['We could not find this address. Check the spelling or try a nearby city.'] },
            })
          : new Reply(422, {
              message: 'Asset Limit Reached',
              limitExceeded: true,
              title: 'Asset Limit Reached',
              description: 'Your organization has reached its asset limit. Contact support to raise it.',
            }),
    });
    renderApp('/monitor/configurations', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'New location configuration' }));
    const dialog = await screen.findByRole('dialog', { name: 'New location configuration' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Nowhere');
    await user.type(within(dialog).getByRole('combobox', { name: 'Address' }), 'Atlantis, Narnia');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/We could not find this address/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('dialog', { name: 'Asset Limit Reached' })).toHaveTextContent(
      'Contact support to raise it.',
    );
  });

  it('deletes after confirmation, and only offers changes to those who may make them', async () => {
    const requests = fakeServer({
      [LIST]: page([configuration(1), configuration(2, { canEdit: false, name: 'Their site' })]),
      'DELETE /api/v1/configurations-manager/configurations/1': { data: { deleted: true } },
    });
    renderApp('/monitor/configurations', { profile: testProfile() });
    await screen.findByRole('table', { name: 'Location configurations' });
    expect(screen.queryByRole('button', { name: 'Delete Their site' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Map of Their site' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Site 1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete “Site 1”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('“Site 1” deleted')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE')).toBe(true);
  });

  it('imports places from a CSV file and reports each line', async () => {
    const requests = fakeServer({
      [LIST]: page([]),
      'POST /api/v1/configurations-manager/configurations/import': {
        data: {
          created: 1,
          failed: 1,
          places: [
            { line: 2, name: 'Depot', address: 'Lyon, France', created: true, fpid: 'fp9' },
            {
              line: 3,
              name: 'Lost city',
              address: 'Atlantis',
              created: false,
              message: 'We could not find this address. Check the spelling or try a nearby city.',
            },
          ],
        },
      },
    });
    renderApp('/monitor/configurations', { profile: testProfile() });
    await screen.findByText('No location configurations yet');
    const csv = 'name,address\nDepot,"Lyon, France"\nLost city,Atlantis\n';
    await user.upload(screen.getByLabelText('CSV file of places'), new File([csv], 'sites.csv', { type: 'text/csv' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import places' });
    expect(await within(dialog).findByText('1 place was added; 1 line was not.')).toBeInTheDocument();
    const report = within(dialog).getByRole('table', { name: 'Import report' });
    expect(within(report).getByRole('row', { name: /Lost city/ })).toHaveTextContent('We could not find this address');
    expect(requests.find((r) => r.path.endsWith('/import'))?.body).toBe(csv);
  });
});
