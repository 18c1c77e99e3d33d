import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '../api/keys';
import {
  type DisplayTheme,
  fetchProfile,
  type Profile,
  toggleInboxStreaming,
  toggleMentionedLocations,
  toggleTranslationEnrichment,
  updateContact,
  updateDisplayTheme,
} from '../api/settings';

export const profileQuery = queryOptions({
  queryKey: settingsKeys.profile,
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

export function useTranslationEnrichmentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleTranslationEnrichment,
    onSuccess: (profile) => queryClient.setQueryData(profileQuery.queryKey, profile),
  });
}

export function useMentionedLocationsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleMentionedLocations,
    onSuccess: (profile) => queryClient.setQueryData(profileQuery.queryKey, profile),
  });
}

export function useContactMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateContact,
    onSuccess: (profile) => queryClient.setQueryData(profileQuery.queryKey, profile),
  });
}

/** Whether inbox cards and maps show the places a post's text mentions (on before sign-in loads). */
export function useShowMentionedPlaces(): boolean {
  const { data } = useQuery({ ...profileQuery, enabled: false });
  return data?.is_mentioned_locations_enrichment_enabled ?? true;
}

/** Whether the server translates (--translate-url): without it no translate control is offered. */
export function useServerTranslates(): boolean {
  const { data } = useQuery({ ...profileQuery, enabled: false });
  return data?.translation ?? false;
}
