import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sessionKeys, settingsKeys } from '../api/keys';
import type { Profile } from '../api/settings';
import {
  acceptInvitation,
  currentToken,
  type InvitationAcceptance,
  login,
  renewToken,
  type SessionToken,
} from '../api/transport';

// A reload loses the in-memory bearer token; the session cookie, if any, buys a new one.
export const sessionQuery = queryOptions({
  queryKey: sessionKeys.current,
  queryFn: () => currentToken() ?? renewToken({ atBoot: true }),
  staleTime: Infinity,
  retry: false,
});

export function useSessionQuery() {
  return useQuery(sessionQuery);
}

/** Keeps the session a sign-in started and the user it signed in. */
function useStartedSession() {
  const queryClient = useQueryClient();
  return ({ token, user }: { token: SessionToken; user: Profile }) => {
    queryClient.setQueryData(sessionKeys.current, token);
    queryClient.setQueryData(settingsKeys.profile, user);
  };
}

export function useSignIn() {
  const started = useStartedSession();
  return useMutation({ mutationFn: login, onSuccess: started });
}

/** Accepts the invitation of the link's token, which signs the new member in. */
export function useAcceptInvitation(invitationToken: string) {
  const started = useStartedSession();
  return useMutation({
    mutationFn: (acceptance: InvitationAcceptance) => acceptInvitation(invitationToken, acceptance),
    onSuccess: started,
  });
}
