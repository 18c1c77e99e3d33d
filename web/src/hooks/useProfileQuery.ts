import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type DisplayTheme,
  fetchProfile,
  type Profile,
  toggleInboxStreaming,
  updateDisplayTheme,
} from '../api/settings';

export const profileQuery = queryOptions({
  queryKey: ['settings', 'profile', 'current'],
  queryFn: ({ signal }) => fetchProfile(signal),
  staleTime: 5 * 60_000,
});

/**
 * The signed-in user. Only for screens under the session gate, which renders them once the
 * profile has loaded.
 */
export function useProfile(): Profile {
  const { data } = useQuery(profileQuery);
  if (!data) throw new Error('useProfile is used outside the session gate');
  return data;
}

/** The theme the profile asks for; before sign-in the system's preference decides. */
export function useDisplayTheme(): DisplayTheme {
  const { data } = useQuery({ ...profileQuery, enabled: false });
  return data?.display_theme ?? 'system';
}

export function useDisplayThemeMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDisplayTheme,
    onSuccess: (profile) => queryClient.setQueryData(profileQuery.queryKey, profile),
  });
}

export function useInboxStreamingMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleInboxStreaming,
    onSuccess: (profile) => queryClient.setQueryData(profileQuery.queryKey, profile),
  });
}
