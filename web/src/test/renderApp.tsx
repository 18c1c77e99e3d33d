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
 * Renders the whole app at path with the real routing table: the session gate, the shell and
 * the page. Only for what is about routing or the shell; a component is tested with
 * renderWithApp, which draws neither. With a profile the user is signed in already (as after
 * sign-in); without one the app boots as after a reload. The server's alert channels are
 * known (with SMTP unless told otherwise).
 */
export function renderApp(
  path: string,
  { profile, alertChannels = testAlertChannels }: { profile?: Profile; alertChannels?: AlertChannel[] } = {},
) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(alertChannelsQuery.queryKey, alertChannels);
  if (profile) signIn(queryClient, profile);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<App router={router} queryClient={queryClient} />);
  return { ...view, router, queryClient };
}

/**
 * Renders one component with the providers the app puts around its screens (query client,
 * theme, snackbar, confirm, external links, a memory router at path), signed in as profile,
 * and nothing else: no session gate, no shell, no page.
 */
export function renderWithApp(ui: ReactNode, { profile, path = '/' }: { profile: Profile; path?: string }) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(alertChannelsQuery.queryKey, testAlertChannels);
  signIn(queryClient, profile);
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  return { ...render(<App router={router} queryClient={queryClient} />), router, queryClient };
}

function signIn(queryClient: ReturnType<typeof createQueryClient>, profile: Profile) {
  queryClient.setQueryData(sessionQuery.queryKey, { token: 'test-token', expiresAt: 4_000_000_000 });
  queryClient.setQueryData(profileQuery.queryKey, profile);
}
