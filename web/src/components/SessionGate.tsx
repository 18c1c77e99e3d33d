import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ApiError, renewToken, tokenObtainedAt } from '../api/transport';
import { profileQuery } from '../hooks/useProfileQuery';
import { sessionQuery, useSessionQuery } from '../hooks/useSessionQuery';
import { loginPathFor } from '../lib/redirect';
import { startTokenRefresh } from '../lib/tokenRefresh';
import { LoadingErrorPage } from '../pages/LoadingErrorPage';
import { FullPageProgress } from './FullPageProgress';

function isLostSession(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 419);
}

/**
 * Everything but the sign-in page sits behind this gate: it obtains a bearer token for the
 * session (or sends the user to sign in), loads the profile, and keeps the token fresh.
 */
export function SessionGate() {
  const location = useLocation();
  const queryClient = useQueryClient();
  const session = useSessionQuery();
  const signedIn = session.isSuccess;
  const profile = useQuery({ ...profileQuery, enabled: signedIn });

  useEffect(() => {
    if (!signedIn) return;
    return startTokenRefresh({
      refresh: async () => queryClient.setQueryData(sessionQuery.queryKey, await renewToken()),
      lastRefreshAt: tokenObtainedAt,
    });
  }, [signedIn, queryClient]);

  if (session.isError) {
    // Without a session (or its anti-forgery cookie) the token call refuses: time to sign in.
    if (isLostSession(session.error)) {
      return <Navigate to={loginPathFor(location)} replace />;
    }
    return <LoadingErrorPage code={statusOf(session.error)} message={session.error.message} />;
  }
  // A lost session is already on its way to /logout; an error page would only flash.
  if (profile.isError && !isLostSession(profile.error)) {
    return <LoadingErrorPage code={statusOf(profile.error)} message={profile.error.message} />;
  }
  if (!profile.data) return <FullPageProgress label="Loading Sightline" />;
  return <Outlet />;
}

function statusOf(error: unknown): number {
  return error instanceof ApiError ? error.status : 0;
}
