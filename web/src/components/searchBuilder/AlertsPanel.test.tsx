import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LocationConfiguration } from '../../api/configurations';
import type { Profile } from '../../api/settings';
import { MAX_PROXIMITY_LOCATIONS } from '../../lib/alerts';
import { Reply, fakeServer, type Request } from '../../test/fakeServer';
import { testGroup, testProfile, testProviders, testSearch } from '../../test/fixtures';
import { openSearchBuilder } from '../../test/searchBuilder';

const user = userEvent.setup({ delay: null });

function location(n: number): LocationConfiguration {
  return { id: n, fpid: `loc-${n}`, name: `Place ${n}`, address: `${n} Main Street` };
}

function profileWith(flags: Record<string, boolean>, moose = false, ecs = false): Profile {
  const base = testProfile();
  return {
    ...base,
    organization: { ...base.organization, is_moose_mind_enabled: moose, feature_flags: flags },
    tenant: { ...base.tenant, is_ecs: ecs },
  };
}

function builderServer(locations: LocationConfiguration[]): Request[] {
  return fakeServer({
    'GET /api/v1/monitor/providers': { data: testProviders },
    'GET /api/v1/monitor/monitor-search-groups': { data: [testGroup(3, { name: 'Protests' })] },
    'GET /api/v1/filter-lists/': { data: [] },
    'GET /api/v1/configurations-manager/configurations': { data: locations, meta: {} },
    'POST /api/v1/monitor/searches': new Reply(201, { data: testSearch(42, { value: 'bridge' }) }),
  });
}

async function openAlerts(profile: Profile) {
  const dialog = await openSearchBuilder(profile);
  await user.click(await within(dialog).findByRole('button', { name: /Alerts/ }));
  return dialog;
}

async function chooseInterval(dialog: HTMLElement, field: string, option: string) {
  await user.click(within(dialog).getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('alerts panel', () => {
  it('offers proximity and AI summaries only where the organization has them', async () => {
    builderServer([]);
    const dialog = await openAlerts(
      profileWith({ proximity_notifications: true, ai_summary_notifications: true }, false, true),
    );
    expect(within(dialog).getByRole('combobox', { name: 'E-mail alerts' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox', { name: 'Proximity alerts' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox', { name: 'AI summary' })).not.toBeInTheDocument();
  });

  it('sends an AI summary to the user’s e-mail', async () => {
    const requests = builderServer([]);
    const dialog = await openAlerts(profileWith({ ai_summary_notifications: true }, true));
    await chooseInterval(dialog, 'AI summary', 'Daily');
    await user.click(within(dialog).getByRole('combobox', { name: /Group/ }));
    await user.click(await screen.findByRole('option', { name: 'Protests' }));
    fireEvent.change(within(dialog).getByLabelText('Keywords'), { target: { value: 'bridge' } });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await screen.findByText('Your saved search is running');
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      alerts: [{ type: 'ai_summary', interval: 86400, destinations: [{ type: 'email', address: 'ada@example.test' }] }],
    });
  });

  it('creates the search with a webhook added in the panel, refusing one that is not http or https', async () => {
    const requests = builderServer([]);
    const dialog = await openAlerts(profileWith({}));
    const webhook = within(dialog).getByRole('group', { name: 'Webhook' });
    const field = within(webhook).getByRole('textbox', { name: /Add a webhook URL/ });
    // The address is set at once; Enter, which adds it, is pressed as a user would.
    fireEvent.change(field, { target: { value: 'hooks.example.com/x' } });
    await user.type(field, '{Enter}');
    expect(within(webhook).getByText('The webhook must be an http or https URL.')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: 'https://hooks.example.com/x' } });
    await user.type(field, '{Enter}');
    expect(within(dialog).getByRole('textbox', { name: 'Webhook' })).toHaveValue('Immediate');

    await user.click(within(dialog).getByRole('combobox', { name: /Group/ }));
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

  it('points to the configurations manager when there are no locations', async () => {
    builderServer([]);
    const dialog = await openAlerts(profileWith({ proximity_notifications: true }));
    const link = await within(dialog).findByRole('link', { name: /Add a location configuration/ });
    expect(link).toHaveAttribute('href', '/monitor/configurations');
    expect(within(dialog).getByRole('button', { name: 'Apply locations' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Clear all' })).toBeDisabled();
  });

  it('refuses an interval before locations, then turns on once they are applied', async () => {
    const requests = builderServer([location(1), location(2)]);
    const dialog = await openAlerts(profileWith({ proximity_notifications: true }));
    expect(requests.find((r) => r.path === '/api/v1/configurations-manager/configurations')?.query.get('limit')).toBe(
      '1000',
    );
    await within(dialog).findByRole('combobox', { name: 'Proximity locations' });
    await chooseInterval(dialog, 'Proximity alerts', 'Every 5 minutes');
    expect(await screen.findByText(/needs at least one location before it can be turned on/)).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Proximity alerts' })).toHaveTextContent('Off');

    await user.click(within(dialog).getByRole('combobox', { name: 'Proximity locations' }));
    await user.click(await screen.findByRole('option', { name: 'Place 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply locations' }));
    await chooseInterval(dialog, 'Proximity alerts', 'Every 30 minutes');
    expect(within(dialog).getByRole('combobox', { name: 'Proximity alerts' })).toHaveTextContent('Every 30 minutes');

    await user.click(within(dialog).getByRole('button', { name: 'Clear all' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply locations' }));
    expect(within(dialog).getByRole('combobox', { name: 'Proximity alerts' })).toHaveTextContent('Off');
  });

  it('warns and blocks Apply beyond the maximum number of locations', async () => {
    const many = Array.from({ length: MAX_PROXIMITY_LOCATIONS + 1 }, (_, i) => location(i + 1));
    builderServer(many);
    const dialog = await openAlerts(profileWith({ proximity_notifications: true }));
    const picker = await within(dialog).findByRole('combobox', { name: 'Proximity locations' });
    await user.click(picker);
    for (const place of many) await user.click(await screen.findByRole('option', { name: place.name }));
    expect(within(dialog).getByText(new RegExp(`at most ${MAX_PROXIMITY_LOCATIONS} locations`))).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Apply locations' })).toBeDisabled();
  });
});
