import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '../api/keys';
import { disconnectSocialAccount, fetchSocialAccounts, fetchSocialProviders } from '../api/social';

export function useSocialProvidersQuery() {
  return useQuery({ queryKey: settingsKeys.socialProviders, queryFn: ({ signal }) => fetchSocialProviders(signal) });
}

export function useSocialAccountsQuery() {
  return useQuery({ queryKey: settingsKeys.socialAccounts, queryFn: ({ signal }) => fetchSocialAccounts(signal) });
}

export function useDisconnectSocialAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectSocialAccount,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: settingsKeys.social });
      // The profile lists the connected accounts too.
      void queryClient.invalidateQueries({ queryKey: settingsKeys.profile });
    },
  });
}
