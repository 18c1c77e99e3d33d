import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '../api/keys';
import {
  changePassword,
  confirmMfa,
  disableMfa,
  type DisplayTheme,
  fetchProfile,
  fetchProfileState,
  type Profile,
  startMfa,
  toggleInboxStreaming,
  toggleMentionedLocations,
  toggleTranslationEnrichment,
  updateContact,
  updateDisplayTheme,
  updateMediaSensitivity,
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

export function useMediaSensitivityMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMediaSensitivity,
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

/** Changes the password; the server signs the other sessions out, so their list reloads. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.sessions }),
  });
}

/** Whether recovery codes are left, while two-step verification is on (enabled). */
export function useTwoStepStateQuery(enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.twoStepState,
    queryFn: ({ signal }) => fetchProfileState(signal),
    enabled,
  });
}

/** Records that two-step verification is now on or off. */
function useMarkTwoStep() {
  const queryClient = useQueryClient();
  return (on: boolean) => {
    queryClient.setQueryData<Profile>(settingsKeys.profile, (p) => p && { ...p, is_mfa_enabled: on });
    void queryClient.invalidateQueries({ queryKey: settingsKeys.twoStepState });
  };
}

/** Starts turning two-step verification on (the current password); resolves to the key to scan. */
export function useStartTwoStep() {
  return useMutation({ mutationFn: startMfa });
}

/**
 * Turns two-step verification on with a code. onConfirmed gets the recovery codes, shown once, in
 * the same render as the profile turns on: a render between would ask for the codes left.
 */
export function useConfirmTwoStep(onConfirmed: (recoveryCodes: string[]) => void) {
  const mark = useMarkTwoStep();
  return useMutation({
    mutationFn: confirmMfa,
    onSuccess: (codes) => {
      onConfirmed(codes);
      mark(true);
    },
  });
}

/** Turns two-step verification off with the current password and a code; onDisabled as the profile changes. */
export function useDisableTwoStep(onDisabled: () => void) {
  const mark = useMarkTwoStep();
  return useMutation({
    mutationFn: ({ password, code }: { password: string; code: string }) => disableMfa(password, code),
    onSuccess: () => {
      onDisabled();
      mark(false);
    },
  });
}
