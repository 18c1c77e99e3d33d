import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchOwnTokens, revokeOwnToken } from '../api/settings';

export const ownTokensKey = ['settings', 'tokens'] as const;

export function useOwnTokensQuery() {
  return useQuery({ queryKey: ownTokensKey, queryFn: ({ signal }) => fetchOwnTokens(signal) });
}

export function useRevokeOwnToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => revokeOwnToken(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ownTokensKey }),
  });
}
