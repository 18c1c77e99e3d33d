import type { Profile } from '../api/settings';

export type AreaId = 'locate' | 'beacon' | 'monitor' | 'intel-reports' | 'rfi' | 'compliance' | 'settings' | 'logout';

export interface ProductArea {
  id: AreaId;
  label: string;
  href: string;
  /** Portals that live beside the app open in a new tab. */
  newTab: boolean;
}

const allAreas: ProductArea[] = [
  { id: 'locate', label: 'Locate', href: '/locate', newTab: false },
  { id: 'beacon', label: 'Beacon', href: '/beacon', newTab: false },
  { id: 'monitor', label: 'Monitor', href: '/monitor/dashboard', newTab: false },
  { id: 'intel-reports', label: 'Intel Reports', href: '/cti', newTab: true },
  { id: 'rfi', label: 'My RFIs', href: '/rfi', newTab: true },
  { id: 'compliance', label: 'Compliance', href: '/compliance', newTab: false },
  { id: 'settings', label: 'Settings', href: '/settings', newTab: false },
  { id: 'logout', label: 'Logout', href: '/logout', newTab: false },
];

export type Entitlements = Pick<Profile, 'acl' | 'tenant'> & {
  organization: Pick<Profile['organization'], 'feature_flags'>;
};

function isEntitled(id: AreaId, { acl, tenant, organization }: Entitlements): boolean {
  switch (id) {
    case 'locate':
      return acl.pro || acl.enterprise;
    case 'beacon':
      return acl.beacon && !organization.feature_flags.beacon_sunset;
    case 'intel-reports':
      return acl.intel_reports;
    case 'rfi':
      return acl.rfi;
    case 'logout':
      return tenant.logout;
    default:
      return true;
  }
}

/** Every area of the spec, for tests of the entitlement rules. */
export const allAreaIds: ReadonlySet<AreaId> = new Set(allAreas.map((area) => area.id));

// The areas this build has screens for. The others belong to the spec too (Compliance and the
// intelligence portals), but a link must never lead to a 404.
const servedAreas: ReadonlySet<AreaId> = new Set(['locate', 'beacon', 'monitor', 'settings', 'logout']);

/** Whether this build has the area's screens, so that links into it may be shown. */
export function isServed(id: AreaId): boolean {
  return servedAreas.has(id);
}

/** Whether the user may be sent into the area: it is served and they are entitled to it. */
export function canOpen(id: AreaId, entitlements: Entitlements): boolean {
  return isServed(id) && isEntitled(id, entitlements);
}

/** The left rail and the cross-product menu: every served area the user may reach, in the spec's order. */
export function productAreas(entitlements: Entitlements, served = servedAreas): ProductArea[] {
  return allAreas.filter((area) => served.has(area.id) && isEntitled(area.id, entitlements));
}

/** The area the path belongs to, for highlighting and for skipping needless reloads. */
export function activeArea(pathname: string): AreaId | undefined {
  const first = pathname.split('/')[1] ?? '';
  // Search filters belong to Locate wherever they are opened from.
  if (first === 'locate' || pathname.includes('/search-filters')) return 'locate';
  if (first === 'monitor' || first === 'assets') return 'monitor';
  if (first === 'beacon' || first === 'history') return 'beacon';
  if (first === 'settings' || first === 'compliance') return first;
  return undefined;
}
