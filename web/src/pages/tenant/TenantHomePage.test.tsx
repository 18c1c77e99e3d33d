import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TenantOrganization } from '../../api/tenant';
import { fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });

function organization(overrides: Partial<TenantOrganization> = {}): TenantOrganization {
  return {
    id: 1,
    name: 'Acme',
    is_uspi_compliant: false,
    is_moose_mind_enabled: false,
    feature_flags: {
      beacon_sunset: false,
      share_searches: true,
      shared_filter_warning: true,
      proximity_notifications: true,
      ai_summary_notifications: true,
      monitor_global_filter_bar: true,
    },
    monthly_data_limit: 5000,
    asset_limit: 0,
    alert_daily_limit: 0,
    usage: { members: 4, savedSearches: 7, assets: 9, matchesThisMonth: 1234 },
    createdAt: 1_790_000_000,
    ...overrides,
  };
}

describe('the tenant portal', () => {
  // Issue 29: an organization's limits could only be changed in the database.
  it('sets an organization’s limits, refusing what is not a whole number', async () => {
    let acme = organization();
    const requests = fakeServer({
      'GET /api/v1/tenant/organizations': () => ({ data: [acme] }),
      'PUT /api/v1/tenant/organizations/1/limits': (request: { body: unknown }) => {
        acme = { ...acme, ...(request.body as Partial<TenantOrganization>) };
        return { data: acme };
      },
    });
    renderApp('/tenant', { profile: testProfile({ is_tenant_admin: true }) });
    await user.click(await screen.findByRole('button', { name: 'Edit limits of Acme' }));
    const dialog = await screen.findByRole('dialog', { name: 'Limits of Acme' });
    const assets = within(dialog).getByRole('textbox', { name: 'Asset limit' });
    await user.clear(assets);
    await user.type(assets, '-3');
    expect(within(dialog).getByText('Type a whole number from 0 (no limit) to 1,000,000,000.')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(assets);
    await user.type(assets, '40');
    // The alerts' flood guard is set here too, 1 to 10,000 or 0 for the default.
    const alerts = within(dialog).getByRole('textbox', { name: 'Alert limit' });
    await user.clear(alerts);
    await user.type(alerts, '10001');
    expect(within(dialog).getByText('Type a whole number from 1 to 10,000, or 0 for the default (50).')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(alerts);
    await user.type(alerts, '120');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Limits of Acme' })).not.toBeInTheDocument());
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      monthly_data_limit: 5000,
      asset_limit: 40,
      alert_daily_limit: 120,
    });
    expect(await screen.findByText('of 40')).toBeVisible();
  });

  it('is a not-found page, and missing from the rail, for anyone but a tenant admin', async () => {
    const requests = fakeServer({});
    renderApp('/tenant/home', { profile: testProfile() });
    expect(await screen.findByText('You seem lost')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Tenant portal' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.path.startsWith('/api/v1/tenant'))).toEqual([]);
  });

  it('lists the organizations with usage against limits and switches a flag and a setting', async () => {
    let acme = organization();
    const requests = fakeServer({
      'GET /api/v1/tenant/organizations': () => ({ data: [acme, organization({ id: 2, name: 'Globex' })] }),
      'PUT /api/v1/tenant/organizations/1/feature-flags/beacon_sunset': () => {
        acme = { ...acme, feature_flags: { ...acme.feature_flags, beacon_sunset: true } };
        return { data: acme };
      },
      'PUT /api/v1/tenant/organizations/1/settings/is_uspi_compliant': () => {
        acme = { ...acme, is_uspi_compliant: true };
        return { data: acme };
      },
    });
    renderApp('/tenant', { profile: testProfile({ is_tenant_admin: true }) });
    expect(await screen.findByRole('link', { name: 'Tenant portal' })).toHaveAttribute('aria-current', 'page');
    const nav = screen.getByRole('navigation', { name: 'Tenant portal' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Home', 'Users', 'API tokens', 'Audit logs', 'Announcements']);

    const card = await screen.findByRole('region', { name: 'Acme' });
    expect(within(card).getByText('Matches this month').parentElement).toHaveTextContent('1,234of 5,000');
    expect(within(card).getByText('Assets').parentElement).toHaveTextContent('9no limit');
    expect(within(card).getByText('Members').parentElement).toHaveTextContent('4');
    expect(screen.getByRole('region', { name: 'Globex' })).toBeInTheDocument();

    const sunset = within(card).getByRole('switch', { name: 'Beacon sunset for Acme' });
    expect(sunset).not.toBeChecked();
    await user.click(sunset);
    await waitFor(() => expect(sunset).toBeChecked());
    await user.click(within(card).getByRole('switch', { name: 'US-persons compliance for Acme' }));
    await waitFor(() =>
      expect(within(card).getByRole('switch', { name: 'US-persons compliance for Acme' })).toBeChecked(),
    );
    expect(requests.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      ['/api/v1/tenant/organizations/1/feature-flags/beacon_sunset', { enabled: true }],
      ['/api/v1/tenant/organizations/1/settings/is_uspi_compliant', { enabled: true }],
    ]);
  });
});
