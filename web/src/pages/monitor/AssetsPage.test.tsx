import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Asset } from '../../api/assets';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { AssetsPage } from './AssetsPage';

const user = userEvent.setup({ delay: null });

function testAsset(id: number, type: Asset['type'], value: string, canEdit = true): Asset {
  return {
    id,
    type,
    value,
    ownerEmail: 'ada@example.test',
    canEdit,
    createdAt: 1_795_000_000,
    updatedAt: 1_795_000_000,
  };
}

describe('AssetsPage', () => {
  it('lists the organization’s assets by type, with edit and delete only where allowed', async () => {
    fakeServer({
      'GET /api/v1/monitor/assets': {
        data: [testAsset(1, 'domain', 'example.com'), testAsset(2, 'ip_address', '203.0.113.7', false)],
      },
    });
    renderWithApp(<AssetsPage />, { profile: testProfile() });
    const table = await screen.findByRole('table', { name: 'Assets' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('button', { name: 'Edit example.com' })).toBeVisible();
    expect(within(table).queryByRole('button', { name: 'Edit 203.0.113.7' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'IP address' }));
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByRole('status')).toHaveTextContent('1 asset');
  });

  it('says what to do first when there are none', async () => {
    fakeServer({ 'GET /api/v1/monitor/assets': { data: [] } });
    renderWithApp(<AssetsPage />, { profile: testProfile() });
    expect(await screen.findByText('No assets yet')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add the first asset' })).toBeVisible();
  });

  it('shows the server’s message for a value its type refuses, and sends the cleaned value', async () => {
    const requests = fakeServer({
      'GET /api/v1/monitor/assets': { data: [] },
      'POST /api/v1/monitor/assets': (request: { body: unknown }) =>
        (request.body as { value: string }).value === '300.1.1.1'
          ? new Reply(422, {
              message: 'The given data was invalid.',
              errors: { value: ['Please provide a valid IP address'] },
            })
          : { data: testAsset(3, 'ip_address', '10.0.0.1') },
    });
    renderWithApp(<AssetsPage />, { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Add the first asset' }));
    const dialog = await screen.findByRole('dialog', { name: 'New asset' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Value is required')).toBeVisible();

    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'IP address' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Value/ }), ' 300.1.1.1 ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please provide a valid IP address')).toBeVisible();

    await user.clear(within(dialog).getByRole('textbox', { name: /Value/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Value/ }), '::ffff:10.0.0.1');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New asset' })).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { type: 'ip_address', value: '300.1.1.1' },
      { type: 'ip_address', value: '::ffff:10.0.0.1' },
    ]);
  });

  it('opens the Asset Limit dialog past the organization’s limit', async () => {
    fakeServer({
      'GET /api/v1/monitor/assets': { data: [testAsset(1, 'domain', 'example.com')] },
      'POST /api/v1/monitor/assets': new Reply(422, {
        message: 'Asset Limit Reached',
        limitExceeded: true,
        title: 'Asset Limit Reached',
        description: 'Your organization has reached the number of assets its plan allows.',
      }),
    });
    renderWithApp(<AssetsPage />, { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Add an asset' }));
    const dialog = await screen.findByRole('dialog', { name: 'New asset' });
    await user.type(within(dialog).getByRole('textbox', { name: /Value/ }), 'example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const limit = await screen.findByRole('dialog', { name: 'Asset Limit Reached' });
    expect(limit).toHaveTextContent('Your organization has reached the number of assets its plan allows.');
  });
});
