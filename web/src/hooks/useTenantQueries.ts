import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { tenantKeys } from '../api/keys';
import {
  createTenantToken,
  createTenantUser,
  fetchTenantOrganizations,
  fetchTenantTokens,
  fetchTenantUsers,
  type NewTenantToken,
  type NewTenantUser,
  type OrganizationSetting,
  revokeTenantToken,
  type Role,
  setFeatureFlag,
  setOrganizationLimits,
  setOrganizationSetting,
  type OrganizationLimits,
  resetTenantUserMfa,
  setTenantUserDisabled,
  type TenantACL,
  type TenantOrganization,
  updateTenantUser,
} from '../api/tenant';
import { profileQuery } from './useProfileQuery';

export function useTenantOrganizationsQuery() {
  return useQuery({ queryKey: tenantKeys.organizations, queryFn: ({ signal }) => fetchTenantOrganizations(signal) });
}

export type OrganizationSwitch = { kind: 'flag'; name: string } | { kind: 'setting'; name: OrganizationSetting };

/** Turns a feature flag or an organization setting on or off. */
export function useOrganizationSwitch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      organizationId,
      target,
      enabled,
    }: {
      organizationId: number;
      target: OrganizationSwitch;
      enabled: boolean;
    }) =>
      target.kind === 'flag'
        ? setFeatureFlag(organizationId, target.name, enabled)
        : setOrganizationSetting(organizationId, target.name, enabled),
    onSuccess: (updated) => {
      queryClient.setQueryData<TenantOrganization[]>(tenantKeys.organizations, (list) =>
        list?.map((o) => (o.id === updated.id ? updated : o)),
      );
      // The admin's own organization's flags shape their navigation.
      void queryClient.invalidateQueries({ queryKey: profileQuery.queryKey });
    },
  });
}

/** Sets an organization's monthly data limit and asset limit. */
export function useSetOrganizationLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, limits }: { organizationId: number; limits: OrganizationLimits }) =>
      setOrganizationLimits(organizationId, limits),
    onSuccess: (updated) => {
      queryClient.setQueryData<TenantOrganization[]>(tenantKeys.organizations, (list) =>
        list?.map((o) => (o.id === updated.id ? updated : o)),
      );
      // The admin's own organization's limits are in their profile.
      void queryClient.invalidateQueries({ queryKey: profileQuery.queryKey });
    },
  });
}

export function useTenantUsersQuery() {
  return useQuery({ queryKey: tenantKeys.users, queryFn: ({ signal }) => fetchTenantUsers(signal) });
}

function useInvalidating<A, R>(fn: (args: A) => Promise<R>, keys: readonly (readonly string[])[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function useCreateTenantUser() {
  return useInvalidating((user: NewTenantUser) => createTenantUser(user), [tenantKeys.users, tenantKeys.organizations]);
}

export function useUpdateTenantUser() {
  return useInvalidating(
    ({ id, role, acl }: { id: number; role: Role; acl: TenantACL }) => updateTenantUser(id, { role, acl }),
    [tenantKeys.users],
  );
}

export function useSetTenantUserDisabled() {
  return useInvalidating(
    ({ id, disabled }: { id: number; disabled: boolean }) => setTenantUserDisabled(id, disabled),
    [tenantKeys.users],
  );
}

export function useResetTenantUserMfa() {
  return useInvalidating((id: number) => resetTenantUserMfa(id), [tenantKeys.users]);
}

export function useTenantTokensQuery() {
  return useQuery({ queryKey: tenantKeys.tokens, queryFn: ({ signal }) => fetchTenantTokens(signal) });
}

export function useCreateTenantToken() {
  return useInvalidating((token: NewTenantToken) => createTenantToken(token), [tenantKeys.tokens]);
}

export function useRevokeTenantToken() {
  return useInvalidating((id: number) => revokeTenantToken(id), [tenantKeys.tokens]);
}
