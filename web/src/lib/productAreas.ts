import type { Profile } from '../api/settings';

export type AreaId =
  'locate' | 'beacon' | 'monitor' | 'cases' | 'intel-reports' | 'rfi' | 'compliance' | 'tenant' | 'settings' | 'logout';

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
  { id: 'cases', label: 'Cases', href: '/cases', newTab: false },
  { id: 'intel-reports', label: 'Intel Reports', href: '/cti', newTab: true },
  { id: 'rfi', label: 'My RFIs', href: '/rfi', newTab: true },
  { id: 'compliance', label: 'Compliance', href: '/compliance', newTab: false },
  { id: 'tenant', label: 'Tenant portal', href: '/tenant', newTab: false },
  { id: 'settings', label: 'Settings', href: '/settings', newTab: false },
  { id: 'logout', label: 'Logout', href: '/logout', newTab: false },
];

export type Entitlements = Pick<Profile, 'acl' | 'tenant' | 'portals'> &
  Partial<Pick<Profile, 'is_tenant_admin'>> & {
    organization: Pick<Profile['organization'], 'feature_flags'>;
  };

/** The search products a subscription may lack; their pages promote them to those without. */
export type SearchProduct = 'locate' | 'beacon';

/** Whether the user's subscription includes the product: Locate with Pro or Enterprise. */
export function subscribes(product: SearchProduct, acl: Profile['acl']): boolean {
  return product === 'locate' ? acl.pro || acl.enterprise : acl.beacon;
}

export function isEntitled(id: AreaId, { acl, tenant, organization, is_tenant_admin }: Entitlements): boolean {
  switch (id) {
    case 'tenant':
      return is_tenant_admin === true;
    case 'locate':
      return subscribes('locate', acl);
    case 'beacon':
      return subscribes('beacon', acl) && !organization.feature_flags.beacon_sunset;
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

/**
 * Whether this deployment has the area: the app's own areas always, the other products' portals
 * (Compliance, My RFIs, Intel Reports) only when the operator gave their address, since a link
 * must never lead to a 404.
 */
export function isServed(id: AreaId, { portals }: Entitlements): boolean {
  switch (id) {
    case 'compliance':
      return portals.compliance;
    case 'rfi':
      return portals.rfi;
    case 'intel-reports':
      return portals.intel_reports;
    default:
      return true;
  }
}

/** Whether the user may be sent into the area: it is served and they are entitled to it. */
export function canOpen(id: AreaId, entitlements: Entitlements): boolean {
  return isServed(id, entitlements) && isEntitled(id, entitlements);
}

/** The left rail and the cross-product menu: every area the user may reach, in the spec's order. */
export function productAreas(entitlements: Entitlements): ProductArea[] {
  return allAreas.filter((area) => canOpen(area.id, entitlements));
}

/** The area the path belongs to, for highlighting and for skipping needless reloads. */
export function activeArea(pathname: string): AreaId | undefined {
  const first = pathname.split('/')[1] ?? '';
  // Search filters belong to Locate wherever they are opened from.
  if (first === 'locate' || pathname.includes('/search-filters')) return 'locate';
  if (first === 'monitor' || first === 'assets') return 'monitor';
  if (first === 'beacon' || first === 'history') return 'beacon';
  if (first === 'cases') return 'cases';
  if (first === 'settings' || first === 'compliance' || first === 'tenant') return first;
  return undefined;
}
