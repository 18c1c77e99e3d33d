import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '../api/keys';
import { fetchOwnTokens, revokeOwnToken } from '../api/settings';

export function useOwnTokensQuery() {
  return useQuery({ queryKey: settingsKeys.tokens, queryFn: ({ signal }) => fetchOwnTokens(signal) });
}

export function useRevokeOwnToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => revokeOwnToken(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.tokens }),
  });
}
