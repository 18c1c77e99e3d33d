import Box from '@mui/material/Box';
import { Outlet, useMatches } from 'react-router';
import { MonitorNavigation } from '../../components/MonitorNavigation';
import { useEmbedded } from '../../hooks/useEmbedded';
import { useLiveUpdates } from '../../hooks/useLiveUpdates';

export interface MonitorRouteHandle {
  /** The screen fills the height and scrolls its own content (the inbox's fixed layout). */
  fullHeight?: boolean;
}

/** /monitor and its /assets alias: the navigation panel beside the chosen screen. */
export function MonitorLayout() {
  const embedded = useEmbedded();
  useLiveUpdates(!embedded);
  const fullHeight = useMatches().some((match) => (match.handle as MonitorRouteHandle | undefined)?.fullHeight);
  if (embedded) return <Outlet />;
  return (
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }}>
      <MonitorNavigation />
      {fullHeight ? (
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
          <Outlet />
        </Box>
      ) : (
        // Focusable, so keyboard users can scroll a screen that has nothing else to focus.
        <Box
          tabIndex={0}
          role="region"
          aria-label="Screen"
          sx={{ flex: 1, minWidth: 0, overflowY: 'auto', p: { xs: 2, md: 4 } }}
        >
          <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
            <Outlet />
          </Box>
        </Box>
      )}
    </Box>
  );
}
