import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotificationSetting } from '../../api/monitor';
import type { AlertChannel, Delivery } from '../../api/notifications';
import type { Profile } from '../../api/settings';
import { Reply, fakeServer, type Request } from '../../test/fakeServer';
import { testAlertChannels, testAlertChannelsWithoutMail, testProfile, testSearch } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });
const EMAIL = 'ada@example.test';
const PATH = '/api/v1/monitor/searches/9/notification-settings';

function stored(overrides: Partial<Record<NotificationSetting['type'], Partial<NotificationSetting>>> = {}) {
  const types: NotificationSetting['type'][] = ['batch', 'digest', 'webhook'];
  return types.map((type) => ({
    type,
    interval: 0,
    destinations: type === 'webhook' ? [] : [{ type: 'email' as const, address: EMAIL }],
    locationAssetIds: [],
    lastUpdatedAt: null,
    ...overrides[type],
  }));
}

function delivery(id: string, overrides: Partial<Delivery> = {}): Delivery {
  return {
    id,
    type: 'batch',
    destination: { type: 'email', address: EMAIL },
    matchCount: 3,
    status: 'sent',
    attempts: 1,
    nextAttemptAt: null,
    lastError: '',
    createdAt: 1_795_260_000,
    sentAt: 1_795_260_060,
    kind: 'matches',
    storyId: '',
    storyLevel: 0,
    escalation: '',
    skipped: '',
    note: '',
    ...overrides,
  };
}

function alertsServer({
  settings = stored(),
  canEdit = true,
  deliveries = [] as Delivery[] | (() => Delivery[]),
  save = (request: Request) => ({ data: request.body, meta: { canEdit: true } }) as unknown,
  test = { data: { delivered: true } } as unknown,
} = {}) {
  return fakeServer({
    'GET /api/v1/monitor/searches/9': { data: testSearch(9, { value: 'Bridge' }) },
    [`GET ${PATH}`]: { data: settings, meta: { canEdit } },
    [`PUT ${PATH}`]: save,
    [`POST ${PATH}/test`]: test,
    'GET /api/v1/monitor/searches/9/alert-quiet': { data: { snoozedUntil: null, mutedStories: [] } },
    'GET /api/v1/monitor/searches/9/deliveries': () => ({
      data: typeof deliveries === 'function' ? deliveries() : deliveries,
    }),
  });
}

async function openAlerts(profile: Profile = testProfile(), alertChannels: AlertChannel[] = testAlertChannels) {
  renderApp('/monitor/9', { profile, alertChannels });
  await user.click(await screen.findByRole('button', { name: 'Alerts' }));
  const drawer = await screen.findByRole('dialog', { name: 'Alerts of “Bridge”' });
  await within(drawer).findByRole('combobox', { name: 'E-mail alerts' });
  return drawer;
}

async function chooseInterval(drawer: HTMLElement, field: string, option: string) {
  await user.click(within(drawer).getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
}

const group = (drawer: HTMLElement, name: string) => within(drawer).getByRole('group', { name });

afterEach(() => {
  vi.useRealTimers();
});

describe('alerts on the search page', () => {
  it('saves a changed interval and a webhook, sending every type', async () => {
    const requests = alertsServer();
    const drawer = await openAlerts();
    const save = within(drawer).getByRole('button', { name: 'Save alerts' });
    expect(save).toBeDisabled();
    expect(within(drawer).getByRole('textbox', { name: 'Webhook' })).toHaveValue('Off');

    await chooseInterval(drawer, 'E-mail alerts', 'Every 5 minutes');
    expect(save).toBeEnabled();
    const webhook = group(drawer, 'Webhook');
    await user.type(within(webhook).getByRole('textbox', { name: /Add a webhook URL/ }), 'https://hooks.example.com/x');
    await user.click(within(webhook).getByRole('button', { name: 'Add to Webhook' }));
    expect(within(drawer).getByRole('textbox', { name: 'Webhook' })).toHaveValue('Immediate');
    await user.click(save);

    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual([
      { type: 'batch', interval: 300, destinations: [{ type: 'email', address: EMAIL }], locationAssetIds: [] },
      { type: 'digest', interval: 0, destinations: [{ type: 'email', address: EMAIL }], locationAssetIds: [] },
      {
        type: 'webhook',
        interval: 0,
        destinations: [{ type: 'webhook', address: 'https://hooks.example.com/x' }],
        locationAssetIds: [],
      },
    ]);
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('offers the spec’s intervals per type', async () => {
    alertsServer();
    const drawer = await openAlerts();
    await user.click(within(drawer).getByRole('combobox', { name: 'E-mail alerts' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Off',
      'Every minute',
      'Every 5 minutes',
      'Every 30 minutes',
      'Every 60 minutes',
    ]);
    await user.keyboard('{Escape}');
    await user.click(within(drawer).getByRole('combobox', { name: 'E-mail digest' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Off', 'Daily', 'Weekly']);
  });

  it('refuses bad destinations inline and keeps at least one e-mail', async () => {
    const requests = alertsServer({ settings: stored({ batch: { interval: 60 } }) });
    const drawer = await openAlerts();
    const batch = group(drawer, 'E-mail alerts');
    const field = within(batch).getByRole('textbox', { name: /Add an e-mail address/ });
    const add = within(batch).getByRole('button', { name: 'Add to E-mail alerts' });

    await user.type(field, 'not-an-address');
    await user.click(add);
    expect(within(batch).getByText('The provided email address is invalid')).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, 'ADA@example.test');
    await user.click(add);
    expect(within(batch).getByText('This e-mail address is already a destination.')).toBeInTheDocument();

    await user.click(within(batch).getByRole('button', { name: `Remove ${EMAIL}` }));
    expect(within(batch).getByText('Keep at least one destination while this alert is on.')).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, 'team@example.com{Enter}');
    expect(within(batch).getByRole('list', { name: 'Destinations of E-mail alerts' })).toHaveTextContent(
      'team@example.com',
    );
    await user.click(within(batch).getByRole('button', { name: `Remove ${EMAIL}` }));
    expect(within(batch).queryByRole('button', { name: `Remove ${EMAIL}` })).not.toBeInTheDocument();

    const webhook = group(drawer, 'Webhook');
    await user.type(
      within(webhook).getByRole('textbox', { name: /Add a webhook URL/ }),
      'ftp://hooks.example.com{Enter}',
    );
    expect(within(webhook).getByText('The webhook must be an http or https URL.')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Save alerts' }));
    await screen.findByText('Notification settings saved');
    expect((requests.find((r) => r.method === 'PUT')?.body as NotificationSetting[])[0]?.destinations).toEqual([
      { type: 'email', address: 'team@example.com' },
    ]);
  });

  it('says “Failed to save notification settings”, with the server’s reason', async () => {
    alertsServer({
      save: () =>
        new Reply(422, { message: 'A proximity alert needs at least one location before it can be turned on.' }),
    });
    const drawer = await openAlerts();
    await chooseInterval(drawer, 'E-mail digest', 'Daily');
    await user.click(within(drawer).getByRole('button', { name: 'Save alerts' }));
    expect(await screen.findByText('Failed to save notification settings')).toBeInTheDocument();
    expect(within(drawer).getByText(/needs at least one location/)).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Save alerts' })).toBeEnabled();
  });

  it('covers the settings with Invalid Permissions when the user may not edit', async () => {
    alertsServer({ canEdit: false });
    const drawer = await openAlerts();
    expect(within(drawer).getByRole('note', { name: 'Invalid Permissions' })).toBeInTheDocument();
    expect(within(drawer).getByRole('combobox', { name: 'E-mail alerts' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(drawer).queryByRole('button', { name: 'Save alerts' })).not.toBeInTheDocument();
  });

  it('says e-mail delivery is off and offers no e-mail interval', async () => {
    alertsServer();
    const drawer = await openAlerts(testProfile({ emailDelivery: false }), testAlertChannelsWithoutMail);
    expect(within(drawer).getByText(/E-mail delivery is not configured on this server\./)).toBeInTheDocument();
    await user.click(within(drawer).getByRole('combobox', { name: 'E-mail alerts' }));
    expect(await screen.findByRole('option', { name: 'Every minute' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: 'Off' })).not.toHaveAttribute('aria-disabled');
  });

  it('sends a test to one destination and shows how it went', async () => {
    let reply: unknown = { data: { delivered: true } };
    const requests = alertsServer({ settings: stored({ batch: { interval: 60 } }), test: () => reply });
    const drawer = await openAlerts();
    const batch = group(drawer, 'E-mail alerts');
    await user.click(within(batch).getByRole('button', { name: `Send test to ${EMAIL}` }));
    expect(await within(batch).findByText('Test delivered.')).toBeInTheDocument();
    expect(requests.find((r) => r.path.endsWith('/test'))?.body).toEqual({
      destination: { type: 'email', address: EMAIL },
    });

    reply = new Reply(502, { message: 'The test could not be delivered: connection refused' });
    await user.click(within(batch).getByRole('button', { name: `Send test to ${EMAIL}` }));
    expect(await within(batch).findByText('The test could not be delivered: connection refused')).toBeInTheDocument();
  });

  it('asks before closing with unsaved changes or a typed address', async () => {
    alertsServer();
    const drawer = await openAlerts();
    await user.type(
      within(group(drawer, 'Webhook')).getByRole('textbox', { name: /Add a webhook URL/ }),
      'https://hooks.example.com/x',
    );
    await user.click(within(drawer).getByRole('button', { name: 'Close alerts' }));
    const ask = await screen.findByRole('dialog', { name: 'Save the alerts before leaving?' });
    expect(ask).toHaveTextContent('An address you typed has not been added');
    await user.click(within(ask).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(ask).not.toBeInTheDocument());

    await chooseInterval(drawer, 'E-mail digest', 'Weekly');
    await user.click(within(drawer).getByRole('button', { name: 'Close alerts' }));
    const again = await screen.findByRole('dialog', { name: 'Save the alerts before leaving?' });
    expect(again).toHaveTextContent('Your changes to these alerts are not saved yet.');
    await user.click(within(again).getByRole('button', { name: 'Discard and leave' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Alerts of “Bridge”' })).not.toBeInTheDocument());
  });
});

describe('delivery history', () => {
  it('says what happens next while nothing has been delivered', async () => {
    alertsServer();
    const drawer = await openAlerts();
    expect(await within(drawer).findByText(/Nothing has been delivered yet/)).toBeInTheDocument();
  });

  it('lists each delivery with its status, why, attempts and last error', async () => {
    alertsServer({
      deliveries: [
        delivery('d4', {
          type: 'webhook',
          destination: { type: 'webhook', address: 'https://hooks.example.com/x' },
          status: 'skipped',
          skipped: 'grouped',
          note: 'Already notified, not escalated: quake.',
          attempts: 0,
          sentAt: null,
        }),
        delivery('d3', { kind: 'story', storyId: 'quake', escalation: 'posts_tripled,more_providers', storyLevel: 1 }),
        delivery('d2', {
          type: 'webhook',
          destination: { type: 'webhook', address: 'https://hooks.example.com/x' },
          status: 'failed',
          attempts: 12,
          lastError: 'status 500',
          sentAt: null,
        }),
        delivery('d1'),
      ],
    });
    const drawer = await openAlerts();
    const table = await within(drawer).findByRole('table', { name: 'Deliveries' });
    const rows = within(table).getAllByRole('row');
    expect(
      rows.map((r) =>
        within(r)
          .queryAllByRole('cell')
          .slice(0, 7)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      [],
      ['Webhook', 'https://hooks.example.com/x', '3', 'Grouped', 'Already notified, not escalated: quake.', '0', '—'],
      ['E-mail alerts', EMAIL, '3', 'Sent', 'Story quake: its post count tripled; it reached 3 more sources', '1', '—'],
      ['Webhook', 'https://hooks.example.com/x', '3', 'Failed', 'New matches', '12', 'status 500'],
      ['E-mail alerts', EMAIL, '3', 'Sent', 'New matches', '1', '—'],
    ]);
  });

  it('reloads every 30 seconds while a delivery is pending or retrying, and stops after', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let calls = 0;
    alertsServer({
      deliveries: () => {
        calls += 1;
        return [delivery('d1', calls < 2 ? { status: 'retrying', nextAttemptAt: 1_795_260_600, sentAt: null } : {})];
      },
    });
    const drawer = await openAlerts();
    expect(await within(drawer).findByText('Retrying')).toBeInTheDocument();
    expect(within(drawer).getByText(/refreshes every 30 seconds/)).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(await within(drawer).findByText('Sent')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(calls).toBe(2);
  });
});
