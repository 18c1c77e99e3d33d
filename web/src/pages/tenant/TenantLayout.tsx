import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Outlet } from 'react-router';
import { type SidebarPage, SidebarSection } from '../../components/SidebarSection';
import { useProfile } from '../../hooks/useProfileQuery';
import { NotFoundPage } from '../NotFoundPage';

// Paths are relative to /tenant.
const pages: SidebarPage[] = [
  { label: 'Home', to: 'home', icon: HomeOutlined },
  { label: 'Users', to: 'users', icon: PeopleOutlined },
  { label: 'API tokens', to: 'tokens', icon: KeyOutlined },
  { label: 'Audit logs', to: 'audit-logs', icon: HistoryOutlined },
  { label: 'Announcements', to: 'announcements', icon: CampaignOutlined },
];

/** /tenant: the tenant portal's navigation beside its screens, for tenant admins only. */
export function TenantLayout() {
  const profile = useProfile();
  const theme = useTheme();
  const mini = useMediaQuery(theme.breakpoints.down('md'));
  // The portal does not exist for anyone else, as the server's 403s say.
  if (!profile.is_tenant_admin) return <NotFoundPage />;
  return (
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }}>
      <Box
        component="nav"
        aria-label="Tenant portal"
        sx={{
          width: mini ? 68 : 256,
          flexShrink: 0,
          borderRight: 1,
          borderColor: 'divider',
          bgcolor: 'background.paper',
          overflowY: 'auto',
          py: 1,
        }}
      >
        <SidebarSection title={`Tenant ${profile.tenant.name}`} pages={pages} mini={mini} />
      </Box>
      {/* Focusable, so keyboard users can scroll a screen that has nothing else to focus. */}
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
    </Box>
  );
}
