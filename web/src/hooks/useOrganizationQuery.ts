import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchOrganization, type Organization, rotateWebhookSecret } from '../api/settings';

const organizationKey = ['settings', 'organizations', 'current'] as const;

export function useOrganizationQuery() {
  return useQuery({
    queryKey: organizationKey,
    queryFn: ({ signal }) => fetchOrganization(signal),
  });
}

/** Generates or rotates the webhook signing secret; resolves to the secret, shown once. */
export function useRotateWebhookSecret(organizationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateWebhookSecret(organizationId),
    onSuccess: () =>
      queryClient.setQueryData<Organization>(organizationKey, (organization) =>
        organization ? { ...organization, hasWebhookSecret: true } : organization,
      ),
  });
}
