import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter } from 'react-router';
import type { AlertChannel } from '../api/notifications';
import type { Profile } from '../api/settings';
import { App } from '../App';
import { alertChannelsQuery } from '../hooks/useNotificationQueries';
import { profileQuery } from '../hooks/useProfileQuery';
import { sessionQuery } from '../hooks/useSessionQuery';
import { createQueryClient } from '../queryClient';
import { routes } from '../routes';
import { testAlertChannels } from './fixtures';

/**
 * Renders the whole app at path with the real routing table. With a profile the user is signed
 * in already (as after sign-in); without one the app boots as after a reload. The server's alert
 * channels are known (with SMTP unless told otherwise).
 */
export function renderApp(
  path: string,
  { profile, alertChannels = testAlertChannels }: { profile?: Profile; alertChannels?: AlertChannel[] } = {},
) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(alertChannelsQuery.queryKey, alertChannels);
  if (profile) {
    queryClient.setQueryData(sessionQuery.queryKey, { token: 'test-token', expiresAt: 4_000_000_000 });
    queryClient.setQueryData(profileQuery.queryKey, profile);
  }
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<App router={router} queryClient={queryClient} />);
  return { ...view, router, queryClient };
}

/** Renders one component with everything the app provides around its screens, signed in as profile. */
export function renderWithApp(ui: ReactNode, { profile }: { profile: Profile }) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(alertChannelsQuery.queryKey, testAlertChannels);
  queryClient.setQueryData(sessionQuery.queryKey, { token: 'test-token', expiresAt: 4_000_000_000 });
  queryClient.setQueryData(profileQuery.queryKey, profile);
  const router = createMemoryRouter([{ path: '*', element: ui }]);
  return { ...render(<App router={router} queryClient={queryClient} />), queryClient };
}
