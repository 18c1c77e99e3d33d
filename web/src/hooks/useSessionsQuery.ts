import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endSessions, fetchSessions } from '../api/settings';

export const sessionsKey = ['settings', 'sessions'] as const;

export function useSessionsQuery() {
  return useQuery({ queryKey: sessionsKey, queryFn: ({ signal }) => fetchSessions(signal) });
}

/** Ends one session (by id) or all but this one (no id). */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id?: string) => endSessions(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
