import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { invitationKeys, settingsKeys } from '../api/keys';
import {
  fetchInvitations,
  fetchMemberCounts,
  fetchOrganizationCounts,
  invite,
  openInvitation,
  type Product,
  removeMember,
  revokeInvitation,
  type Role,
  setMemberRole,
} from '../api/members';

/** The invitation a link's token opens, for someone not signed in. */
export function useInvitationQuery(token: string) {
  return useQuery({
    queryKey: invitationKeys.open(token),
    queryFn: ({ signal }) => openInvitation(token, signal),
    retry: false,
  });
}

export function useInvitationsQuery(organizationId: number, enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.invitations(organizationId),
    queryFn: ({ signal }) => fetchInvitations(organizationId, signal),
    enabled,
  });
}

/** Invites by e-mail, withdraws invitations, removes members and changes roles; each refreshes the lists. */
export function useMemberActions(organizationId: number) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: settingsKeys.organization });
    void queryClient.invalidateQueries({ queryKey: settingsKeys.invitations(organizationId) });
  };
  return {
    invite: useMutation({
      mutationFn: ({ email, role }: { email: string; role: Role }) => invite(organizationId, email, role),
      onSuccess: refresh,
    }),
    revoke: useMutation({ mutationFn: (id: number) => revokeInvitation(id), onSettled: refresh }),
    remove: useMutation({ mutationFn: (userId: number) => removeMember(organizationId, userId), onSettled: refresh }),
    setRole: useMutation({
      mutationFn: ({ userId, role }: { userId: number; role: Role }) => setMemberRole(organizationId, userId, role),
      onSettled: refresh,
    }),
  };
}

export function useOrganizationCountsQuery(organizationId: number, product: Product) {
  return useQuery({
    queryKey: settingsKeys.statistics(organizationId, product, 'organization'),
    queryFn: ({ signal }) => fetchOrganizationCounts(organizationId, product, signal),
  });
}

export function useMemberCountsQuery(organizationId: number, product: Product) {
  return useQuery({
    queryKey: settingsKeys.statistics(organizationId, product, 'members'),
    queryFn: ({ signal }) => fetchMemberCounts(organizationId, product, signal),
  });
}
