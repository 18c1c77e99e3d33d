import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '../api/keys';
import { fetchOrganization, type Organization, rotateWebhookSecret } from '../api/settings';

export function useOrganizationQuery() {
  return useQuery({
    queryKey: settingsKeys.organization,
    queryFn: ({ signal }) => fetchOrganization(signal),
  });
}

/** Generates or rotates the webhook signing secret; resolves to the secret, shown once. */
export function useRotateWebhookSecret(organizationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateWebhookSecret(organizationId),
    onSuccess: () =>
      queryClient.setQueryData<Organization>(settingsKeys.organization, (organization) =>
        organization ? { ...organization, hasWebhookSecret: true } : organization,
      ),
  });
}
