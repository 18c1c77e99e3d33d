import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { LocationConfiguration } from '../../api/configurations';
import type { NotificationSetting } from '../../api/monitor';
import type { Profile } from '../../api/settings';
import { fakeServer, type Request } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { AlertsPanel, WEBHOOK_NEEDS_SECRET } from './AlertsPanel';

// The panel alone, holding its settings as the builder does; the builder's own test sends them.
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

function renderPanel(profile: Profile, locations: LocationConfiguration[] = [], hasWebhookSecret?: boolean) {
  const requests: Request[] = fakeServer({
    'GET /api/v1/configurations-manager/configurations': { data: locations, meta: {} },
    ...(hasWebhookSecret !== undefined && {
      'GET /api/v1/settings/organizations/current': {
        data: { data: { id: 1, name: 'Acme', crm_id: '', users: [], hasWebhookSecret } },
      },
    }),
  });
  let latest: NotificationSetting[] = [];
  function Harness() {
    const [alerts, setAlerts] = useState<NotificationSetting[]>([]);
    latest = alerts;
    return <AlertsPanel alerts={alerts} onChange={setAlerts} />;
  }
  renderWithApp(<Harness />, { profile });
  return { requests, alerts: () => latest };
}

async function chooseInterval(field: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('alerts panel', () => {
  it('offers proximity and AI summaries only where the organization has them', () => {
    renderPanel(profileWith({ proximity_notifications: true, ai_summary_notifications: true }, false, true));
    expect(screen.getByRole('combobox', { name: 'E-mail alerts' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Proximity alerts' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'AI summary' })).not.toBeInTheDocument();
  });

  it('sends an AI summary to the user’s e-mail', async () => {
    const panel = renderPanel(profileWith({ ai_summary_notifications: true }, true));
    await chooseInterval('AI summary', 'Daily');
    expect(panel.alerts()).toEqual([
      { type: 'ai_summary', interval: 86400, destinations: [{ type: 'email', address: 'ada@example.test' }] },
    ]);
  });

  it('points to the configurations manager when there are no locations', async () => {
    renderPanel(profileWith({ proximity_notifications: true }));
    const link = await screen.findByRole('link', { name: /Add a location configuration/ });
    expect(link).toHaveAttribute('href', '/monitor/configurations');
    expect(screen.getByRole('button', { name: 'Apply locations' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Clear all' })).toBeDisabled();
  });

  it('refuses an interval before locations, then turns on once they are applied', async () => {
    const panel = renderPanel(profileWith({ proximity_notifications: true }), [location(1), location(2)]);
    await screen.findByRole('combobox', { name: 'Proximity locations' });
    expect(
      panel.requests.find((r) => r.path === '/api/v1/configurations-manager/configurations')?.query.get('limit'),
    ).toBe('1000');
    await chooseInterval('Proximity alerts', 'Every 5 minutes');
    expect(await screen.findByText(/needs at least one location before it can be turned on/)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Proximity alerts' })).toHaveTextContent('Off');

    await user.click(screen.getByRole('combobox', { name: 'Proximity locations' }));
    await user.click(await screen.findByRole('option', { name: 'Place 2' }));
    await user.click(screen.getByRole('button', { name: 'Apply locations' }));
    await chooseInterval('Proximity alerts', 'Every 30 minutes');
    expect(screen.getByRole('combobox', { name: 'Proximity alerts' })).toHaveTextContent('Every 30 minutes');
    expect(panel.alerts().find((a) => a.type === 'proximity')).toMatchObject({
      interval: 1800,
      locationAssetIds: ['loc-2'],
    });

    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    await user.click(screen.getByRole('button', { name: 'Apply locations' }));
    expect(screen.getByRole('combobox', { name: 'Proximity alerts' })).toHaveTextContent('Off');
  });

  it('refuses a webhook that is not http or https', async () => {
    const panel = renderPanel(profileWith({}));
    const webhook = screen.getByRole('group', { name: 'Webhook' });
    const field = within(webhook).getByRole('textbox', { name: /Add a webhook URL/ });
    await user.type(field, 'hooks.example.com/x{Enter}');
    expect(within(webhook).getByText('The webhook must be an http or https URL.')).toBeInTheDocument();
    expect(panel.alerts()).toEqual([]);
  });

  it('says up front that a webhook needs the organization’s signing secret, and takes none without it', async () => {
    const panel = renderPanel(profileWith({}), [], false);
    const webhook = screen.getByRole('group', { name: 'Webhook' });
    expect(await within(webhook).findByText(WEBHOOK_NEEDS_SECRET)).toBeInTheDocument();
    expect(within(webhook).getByRole('textbox', { name: /Add a webhook URL/ })).toBeDisabled();
    expect(within(webhook).getByRole('button', { name: 'Add to Webhook' })).toBeDisabled();
    expect(within(webhook).getByRole('textbox', { name: 'Webhook' })).toHaveValue('Off');
    expect(panel.alerts()).toEqual([]);
  });

  it('takes a webhook once the organization has its signing secret', async () => {
    const panel = renderPanel(profileWith({}), [], true);
    const webhook = screen.getByRole('group', { name: 'Webhook' });
    const field = within(webhook).getByRole('textbox', { name: /Add a webhook URL/ });
    await user.type(field, 'https://hooks.example.com/x{Enter}');
    expect(within(webhook).getByRole('textbox', { name: 'Webhook' })).toHaveValue('Immediate');
    expect(within(webhook).queryByText(WEBHOOK_NEEDS_SECRET)).not.toBeInTheDocument();
    expect(panel.alerts()).toMatchObject([
      { type: 'webhook', destinations: [{ address: 'https://hooks.example.com/x' }] },
    ]);
  });
});
