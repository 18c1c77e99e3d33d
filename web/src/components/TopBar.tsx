import AddCircleOutlineOutlined from '@mui/icons-material/AddCircleOutlineOutlined';
import AppsOutlined from '@mui/icons-material/AppsOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import HelpOutlineOutlined from '@mui/icons-material/HelpOutlineOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useProfile } from '../hooks/useProfileQuery';
import { useSearchBuilder } from '../hooks/useSearchBuilder';
import { activeArea, productAreas } from '../lib/productAreas';
import { TOP_BAR_HEIGHT } from '../theme';
import { AnnouncementsPopover } from './AnnouncementsPopover';
import { CrossProductMenu } from './CrossProductMenu';
import { HelpDrawer } from './HelpDrawer';
import { MonitorSearchForm } from './MonitorSearchForm';
import { SightlineMark } from './SightlineMark';
import { SourcesWarning } from './sources/SourcesWarning';

export function TopBar() {
  const profile = useProfile();
  const searchBuilder = useSearchBuilder();
  const { pathname } = useLocation();
  const area = activeArea(pathname);
  const onMonitor = area === 'monitor';
  const title = productAreas(profile).find((entry) => entry.id === area)?.label;

  const [helpOpen, setHelpOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [announcementsAnchor, setAnnouncementsAnchor] = useState<HTMLElement | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);

  return (
    <AppBar position="static" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Toolbar sx={{ height: TOP_BAR_HEIGHT, minHeight: `${TOP_BAR_HEIGHT}px !important`, gap: 2 }}>
        <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', minWidth: { md: 160 } }}>
          <SightlineMark color="primary" sx={{ display: { xs: 'block', sm: 'none' } }} titleAccess="Sightline" />
          {title && (
            <Typography variant="h4" component="div" sx={{ whiteSpace: 'nowrap' }}>
              {title}
            </Typography>
          )}
          {area === 'beacon' && pathname !== '/beacon' && (
            <Tooltip title="Beacon home">
              <IconButton component={RouterLink} to="/beacon" aria-label="Beacon home" size="small">
                <HomeOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </Stack>

        <Box sx={{ flex: 1, display: 'flex', justifyContent: 'center', minWidth: 0 }}>
          {onMonitor && (
            <Box sx={{ display: { xs: 'none', md: 'flex' }, width: '100%', justifyContent: 'center' }}>
              <MonitorSearchForm />
            </Box>
          )}
        </Box>

        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          {onMonitor && (
            <Button
              variant="contained"
              onClick={() => searchBuilder.create()}
              startIcon={<AddCircleOutlineOutlined />}
              sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
            >
              New saved search
            </Button>
          )}
          <Tooltip title="Help and support">
            <IconButton
              aria-label="Help and support"
              onClick={() => setHelpOpen(true)}
              sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
            >
              <HelpOutlineOutlined />
            </IconButton>
          </Tooltip>
          {profile.is_tenant_admin && <SourcesWarning />}
          <Tooltip title="Exports">
            <IconButton
              aria-label="Exports"
              component={RouterLink}
              to="/exports"
              sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
            >
              <FileDownloadOutlined />
            </IconButton>
          </Tooltip>
          <Tooltip title="Announcements">
            <IconButton
              aria-label="Announcements"
              onClick={(event) => setAnnouncementsAnchor(event.currentTarget)}
              sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
            >
              <CampaignOutlined />
            </IconButton>
          </Tooltip>
          <Tooltip title="Sightline products">
            <IconButton ref={menuButton} aria-label="Sightline products" onClick={() => setMenuOpen(true)}>
              <AppsOutlined />
            </IconButton>
          </Tooltip>
        </Stack>
      </Toolbar>

      <HelpDrawer open={helpOpen} onClose={() => setHelpOpen(false)} supportEmail={profile.tenant.support_email} />
      <AnnouncementsPopover anchor={announcementsAnchor} onClose={() => setAnnouncementsAnchor(null)} />
      <CrossProductMenu
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
        onOpenHelp={() => {
          setMenuOpen(false);
          setHelpOpen(true);
        }}
        onOpenAnnouncements={() => {
          setMenuOpen(false);
          setAnnouncementsAnchor(menuButton.current);
        }}
      />
    </AppBar>
  );
}
