import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '../api/keys';
import { endSessions, fetchSessions } from '../api/settings';

export function useSessionsQuery() {
  return useQuery({ queryKey: settingsKeys.sessions, queryFn: ({ signal }) => fetchSessions(signal) });
}

/** Ends one session (by id) or all but this one (no id). */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id?: string) => endSessions(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.sessions }),
  });
}
