// An organization's members, invitations and monthly usage (docs/settings-api.md, "Members and
// invitations" and "Statistics").
import type { OrganizationMember, Profile } from './settings';
import { request } from './transport';

export type Role = Profile['role'];

export interface Invitation {
  id: number;
  email: string;
  role: Role;
  /** Pending, or expired (the link no longer works; withdraw it and invite again). */
  state: 'pending' | 'expired';
  /** Unix seconds. */
  createdAt: number;
  expiresAt: number;
}

/** What the invitation page shows before the invitee joins. */
export interface OpenedInvitation {
  email: string;
  role: Role;
  organization: string;
  expiresAt: number;
}

export async function fetchInvitations(organizationId: number, signal?: AbortSignal): Promise<Invitation[]> {
  return (
    await request<Invitation[]>('GET', `/api/v1/settings/organizations/${organizationId}/invitations`, { signal })
  ).data;
}

/** E-mails an invitation with a one-time link. */
export async function invite(organizationId: number, email: string, role: Role): Promise<Invitation> {
  return (
    await request<Invitation>('POST', `/api/v1/settings/organizations/${organizationId}/invitations`, {
      body: { email, role },
    })
  ).data;
}

/** Withdraws an invitation: its link stops working. */
export async function revokeInvitation(id: number): Promise<void> {
  await request('DELETE', `/api/v1/settings/organizations/invitations/${id}`);
}

/** Removes a member; their sessions and API tokens stop at once. */
export async function removeMember(organizationId: number, userId: number): Promise<void> {
  await request('DELETE', `/api/v1/settings/organizations/${organizationId}/members/${userId}`);
}

export async function setMemberRole(organizationId: number, userId: number, role: Role): Promise<OrganizationMember> {
  return (
    await request<OrganizationMember>('PUT', `/api/v1/settings/organizations/${organizationId}/members/${userId}`, {
      body: { role },
    })
  ).data;
}

/** Opens the invitation behind a link's token (no sign-in needed). */
export async function openInvitation(token: string, signal?: AbortSignal): Promise<OpenedInvitation> {
  return (
    await request<OpenedInvitation>('GET', `/api/v1/invitations/${encodeURIComponent(token)}`, {
      signal,
      unauthenticated: 'report',
      sessionCall: true,
    })
  ).data;
}

export type Product = 'beacon' | 'locate';

/** Monthly figures, oldest month first, one per entry of the report's months. */
export interface MonthlyCounts {
  searches: number[];
  matches: number[];
  exports: number[];
}

export interface OrganizationCounts {
  /** "2026-11" */
  months: string[];
  counts: MonthlyCounts;
}

export interface MemberCounts {
  months: string[];
  members: (MonthlyCounts & { id: number; name: string; email: string; role: Role })[];
}

export async function fetchOrganizationCounts(
  organizationId: number,
  product: Product,
  signal?: AbortSignal,
): Promise<OrganizationCounts> {
  return (
    await request<OrganizationCounts>(
      'GET',
      `/api/v1/settings/organizations/${organizationId}/statistics/${product}/organization-counts-monthly`,
      { signal },
    )
  ).data;
}

export async function fetchMemberCounts(
  organizationId: number,
  product: Product,
  signal?: AbortSignal,
): Promise<MemberCounts> {
  return (
    await request<MemberCounts>(
      'GET',
      `/api/v1/settings/organizations/${organizationId}/statistics/${product}/member-counts-monthly`,
      { signal },
    )
  ).data;
}
