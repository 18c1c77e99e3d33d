import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../api/settings';
import { SKIP_LOGOUT_CONFIRM_COOKIE } from '../hooks/useAreaNavigation';
import { readCookie } from '../lib/cookies';
import { loadPage } from '../lib/navigation';
import { testProfile } from '../test/fixtures';
import { renderApp } from '../test/renderApp';

vi.mock('../lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/navigation')>()),
  loadPage: vi.fn(),
}));

function profileWith({
  beacon = true,
  pro = true,
  beaconSunset = false,
  intelReports = false,
  rfi = false,
  logout = false,
}: {
  beacon?: boolean;
  pro?: boolean;
  beaconSunset?: boolean;
  intelReports?: boolean;
  rfi?: boolean;
  logout?: boolean;
}): Profile {
  const base = testProfile();
  return {
    ...base,
    acl: { ...base.acl, beacon, pro, intel_reports: intelReports, rfi },
    organization: { ...base.organization, feature_flags: { beacon_sunset: beaconSunset } },
    tenant: { ...base.tenant, logout },
  };
}

const rail = () => within(screen.getByRole('navigation', { name: 'Products' }));
const railLabels = () =>
  rail()
    .getAllByRole('link')
    .map((link) => link.getAttribute('aria-label'));

beforeEach(() => {
  vi.mocked(loadPage).mockReset();
});

afterEach(() => {
  document.cookie = `${SKIP_LOGOUT_CONFIRM_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
});

describe('left rail entitlements', () => {
  // The entitlement rules over every area are lib/productAreas.test.ts's; the rail links what
  // this build serves.
  const cases: { name: string; given: Parameters<typeof profileWith>[0]; want: string[] }[] = [
    { name: 'a member without extras', given: {}, want: ['Locate', 'Beacon', 'Monitor', 'Cases', 'Settings'] },
    {
      name: 'every entitlement',
      given: { intelReports: true, rfi: true, logout: true },
      want: ['Locate', 'Beacon', 'Monitor', 'Cases', 'Settings', 'Logout'],
    },
    {
      name: 'a member with Monitor alone',
      given: { beacon: false, pro: false },
      want: ['Monitor', 'Cases', 'Settings'],
    },
  ];
  for (const c of cases) {
    it(`shows the areas for ${c.name}`, async () => {
      renderApp('/monitor/dashboard', { profile: profileWith(c.given) });
      await screen.findByRole('navigation', { name: 'Products' });
      expect(railLabels()).toEqual(c.want);
    });
  }
});

describe('left rail clicks', () => {
  it('loads a page outside the app with a full page load and shows it is loading', async () => {
    document.cookie = `${SKIP_LOGOUT_CONFIRM_COOKIE}=1; path=/`;
    renderApp('/monitor/dashboard', { profile: profileWith({ logout: true }) });
    await userEvent.click(await rail().findByRole('link', { name: 'Logout' }));

    expect(loadPage).toHaveBeenCalledWith('/logout');
    expect(rail().getByRole('progressbar', { name: 'Opening Logout' })).toBeInTheDocument();
    expect(rail().getByRole('link', { name: 'Logout' })).toHaveAttribute('aria-busy', 'true');
  });

  it('leaves a meta-click to the browser, without a loading state', async () => {
    renderApp('/monitor/dashboard', { profile: profileWith({}) });
    const settings = await rail().findByRole('link', { name: 'Settings' });

    const notCanceled = fireEvent.click(settings, { metaKey: true });

    expect(notCanceled).toBe(true);
    expect(loadPage).not.toHaveBeenCalled();
    expect(rail().queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows no loading state for the area already open', async () => {
    const { router } = renderApp('/monitor/groups', { profile: profileWith({}) });
    const monitor = await rail().findByRole('link', { name: 'Monitor' });
    expect(monitor).toHaveAttribute('aria-current', 'page');

    await userEvent.click(monitor);

    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/dashboard'));
    expect(rail().queryByRole('progressbar')).not.toBeInTheDocument();
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('does not reload the area page the user is on', async () => {
    renderApp('/settings', { profile: profileWith({}) });
    await userEvent.click(await rail().findByRole('link', { name: 'Settings' }));
    expect(loadPage).not.toHaveBeenCalled();
    expect(rail().queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('asks before signing out, and remembers "Do not show again"', async () => {
    renderApp('/monitor/dashboard', { profile: profileWith({ logout: true }) });
    await userEvent.click(await rail().findByRole('link', { name: 'Logout' }));

    const dialog = await screen.findByRole('dialog', { name: 'Sign out of Sightline?' });
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Do not show again' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));

    expect(loadPage).toHaveBeenCalledWith('/logout');
    expect(readCookie(SKIP_LOGOUT_CONFIRM_COOKIE)).toBe('1');
  });

  it('signs out at once when the user chose not to be asked again', async () => {
    document.cookie = `${SKIP_LOGOUT_CONFIRM_COOKIE}=1; path=/`;
    renderApp('/monitor/dashboard', { profile: profileWith({ logout: true }) });
    await userEvent.click(await rail().findByRole('link', { name: 'Logout' }));

    expect(loadPage).toHaveBeenCalledWith('/logout');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
