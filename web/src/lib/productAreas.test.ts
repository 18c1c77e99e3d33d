import { describe, expect, it } from 'vitest';
import { activeArea, type Entitlements, productAreas } from './productAreas';

function entitlements(overrides: {
  beacon?: boolean;
  pro?: boolean;
  beaconSunset?: boolean;
  intelReports?: boolean;
  rfi?: boolean;
  logout?: boolean;
  portals?: boolean;
}): Entitlements {
  const portals = overrides.portals ?? true;
  return {
    acl: {
      beacon: overrides.beacon ?? true,
      pro: overrides.pro ?? true,
      enterprise: false,
      locate_api: false,
      rfi: overrides.rfi ?? false,
      intel_reports: overrides.intelReports ?? false,
    },
    tenant: {
      id: 1,
      name: 'default',
      logout: overrides.logout ?? false,
      support_email: 'help@example.test',
      is_ecs: false,
    },
    organization: { feature_flags: { beacon_sunset: overrides.beaconSunset ?? false } },
    portals: { compliance: portals, rfi: portals, intel_reports: portals },
  };
}

describe('the tenant portal entry', () => {
  it('is listed before Settings for tenant admins only', () => {
    const labels = (admin: boolean | undefined) =>
      productAreas({ ...entitlements({}), is_tenant_admin: admin }).map((area) => area.label);
    expect(labels(true)).toEqual(['Locate', 'Beacon', 'Monitor', 'Cases', 'Compliance', 'Tenant portal', 'Settings']);
    expect(labels(false)).not.toContain('Tenant portal');
    expect(labels(undefined)).not.toContain('Tenant portal');
    expect(activeArea('/tenant/users')).toBe('tenant');
  });
});

describe('productAreas', () => {
  const cases: { name: string; given: Parameters<typeof entitlements>[0]; want: string[] }[] = [
    {
      name: 'basic user',
      given: {},
      want: ['Locate', 'Beacon', 'Monitor', 'Cases', 'Compliance', 'Settings'],
    },
    {
      name: 'everything granted',
      given: { intelReports: true, rfi: true, logout: true },
      want: ['Locate', 'Beacon', 'Monitor', 'Cases', 'Intel Reports', 'My RFIs', 'Compliance', 'Settings', 'Logout'],
    },
    {
      name: 'beacon sunset',
      given: { beaconSunset: true, logout: true },
      want: ['Locate', 'Monitor', 'Cases', 'Compliance', 'Settings', 'Logout'],
    },
    {
      name: 'neither Beacon nor a Locate subscription',
      given: { beacon: false, pro: false },
      want: ['Monitor', 'Cases', 'Compliance', 'Settings'],
    },
    {
      name: 'RFI access only',
      given: { rfi: true },
      want: ['Locate', 'Beacon', 'Monitor', 'Cases', 'My RFIs', 'Compliance', 'Settings'],
    },
    {
      name: 'intel reports only',
      given: { intelReports: true },
      want: ['Locate', 'Beacon', 'Monitor', 'Cases', 'Intel Reports', 'Compliance', 'Settings'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(productAreas(entitlements(c.given)).map((area) => area.label)).toEqual(c.want);
    });
  }

  it('opens the intelligence portals in a new tab and nothing else', () => {
    const areas = productAreas(entitlements({ intelReports: true, rfi: true, logout: true }));
    expect(areas.filter((area) => area.newTab).map((area) => area.href)).toEqual(['/cti', '/rfi']);
  });
});

it('links the other products only when the operator gave their addresses', () => {
  expect(
    productAreas(entitlements({ intelReports: true, rfi: true, logout: true, portals: false })).map(
      (area) => area.label,
    ),
  ).toEqual(['Locate', 'Beacon', 'Monitor', 'Cases', 'Settings', 'Logout']);
});

describe('activeArea', () => {
  const cases: [string, string | undefined][] = [
    ['/monitor/dashboard', 'monitor'],
    ['/assets/groups/3', 'monitor'],
    ['/locate', 'locate'],
    ['/monitor/search-filters', 'locate'],
    ['/monitor/filters', 'monitor'],
    ['/search-filters/new', 'locate'],
    ['/beacon', 'beacon'],
    ['/beacon/results', 'beacon'],
    ['/history', 'beacon'],
    ['/cases/4', 'cases'],
    ['/settings', 'settings'],
    ['/compliance', 'compliance'],
    ['/404', undefined],
    ['/', undefined],
  ];
  for (const [path, want] of cases) {
    it(`${path} → ${String(want)}`, () => {
      expect(activeArea(path)).toBe(want);
    });
  }
});
