import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { disconnectSocialAccount, fetchSocialAccounts, fetchSocialProviders } from '../api/social';
import { profileQuery } from './useProfileQuery';

const socialKey = ['settings', 'social'] as const;

export function useSocialProvidersQuery() {
  return useQuery({ queryKey: [...socialKey, 'providers'], queryFn: ({ signal }) => fetchSocialProviders(signal) });
}

export function useSocialAccountsQuery() {
  return useQuery({ queryKey: [...socialKey, 'accounts'], queryFn: ({ signal }) => fetchSocialAccounts(signal) });
}

export function useDisconnectSocialAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectSocialAccount,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: socialKey });
      // The profile lists the connected accounts too.
      void queryClient.invalidateQueries({ queryKey: profileQuery.queryKey });
    },
  });
}
