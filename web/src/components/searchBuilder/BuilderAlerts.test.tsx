import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../api/settings';
import { Reply, fakeServer, type Request } from '../../test/fakeServer';
import { testGroup, testProfile, testProviders, testSearch } from '../../test/fixtures';
import { openSearchBuilder } from '../../test/searchBuilder';

const user = userEvent.setup({ delay: null });

function builderServer(): Request[] {
  return fakeServer({
    'GET /api/v1/monitor/providers': { data: testProviders },
    'GET /api/v1/monitor/monitor-search-groups': { data: [testGroup(3, { name: 'Protests' })] },
    'GET /api/v1/filter-lists/': { data: [] },
    'GET /api/v1/configurations-manager/configurations': { data: [], meta: {} },
    'POST /api/v1/monitor/searches': new Reply(201, { data: testSearch(42, { value: 'bridge' }) }),
  });
}

async function openAlerts(profile: Profile) {
  const dialog = await openSearchBuilder(profile);
  await user.click(await within(dialog).findByRole('button', { name: /Alerts/ }));
  return dialog;
}

// The panel's own rules are tested on it alone (components/alerts/AlertsPanel.test.tsx); here, that
// the builder sends what the panel holds.
describe('alerts in the search builder', () => {
  it('creates the search with a webhook added in the panel', async () => {
    const requests = builderServer();
    const dialog = await openAlerts(testProfile());
    const webhook = within(dialog).getByRole('group', { name: 'Webhook' });
    const field = within(webhook).getByRole('textbox', { name: /Add a webhook URL/ });
    // The address is set at once; Enter, which adds it, is pressed as a user would.
    fireEvent.change(field, { target: { value: 'https://hooks.example.com/x' } });
    await user.type(field, '{Enter}');
    expect(within(dialog).getByRole('textbox', { name: 'Webhook' })).toHaveValue('Immediate');

    await user.click(within(dialog).getByRole('combobox', { name: /^Group\b/ }));
    await user.click(await screen.findByRole('option', { name: 'Protests' }));
    fireEvent.change(within(dialog).getByLabelText('Keywords'), { target: { value: 'bridge' } });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await screen.findByText('Your saved search is running');
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      alerts: [
        { type: 'webhook', interval: 0, destinations: [{ type: 'webhook', address: 'https://hooks.example.com/x' }] },
      ],
    });
  });
});
