import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { useEmbedded } from '../hooks/useEmbedded';
import { ExportToastProvider } from './export/ExportToastProvider';
import { LeftRail } from './LeftRail';
import { SearchBuilderProvider } from './searchBuilder/SearchBuilderProvider';
import { TopBar } from './TopBar';

/** The signed-in frame: the product rail, the top bar and the current screen. */
export function AppShell() {
  const embedded = useEmbedded();
  if (embedded) {
    return (
      <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.paper' }}>
        <Outlet />
      </Box>
    );
  }
  return (
    <ExportToastProvider>
      <SearchBuilderProvider>
        <Box sx={{ display: 'flex', height: '100vh', bgcolor: 'background.default' }}>
          <LeftRail />
          <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
            <TopBar />
            <Box component="main" sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
              <Outlet />
            </Box>
          </Box>
        </Box>
      </SearchBuilderProvider>
    </ExportToastProvider>
  );
}
