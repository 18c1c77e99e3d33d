import AddCircleOutlineOutlined from '@mui/icons-material/AddCircleOutlineOutlined';
import AppsOutlined from '@mui/icons-material/AppsOutlined';
import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import HelpOutlineOutlined from '@mui/icons-material/HelpOutlineOutlined';
import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import AppBar from '@mui/material/AppBar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useAnnouncements } from '../hooks/useAnnouncementQueries';
import { useProfile } from '../hooks/useProfileQuery';
import { useSearchBuilder } from '../hooks/useSearchBuilder';
import { activeArea, productAreas } from '../lib/productAreas';
import { TOP_BAR_HEIGHT } from '../theme';
import { AnnouncementsPopover } from './AnnouncementsPopover';
import { AssistantDrawer } from './assistant/AssistantDrawer';
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
  // The organization's "monitor global filter bar" flag (on unless switched off) is this search
  // form: one filter over the matches, on every Monitor screen.
  const filterBar = profile.organization.feature_flags.monitor_global_filter_bar !== false;
  const title = productAreas(profile).find((entry) => entry.id === area)?.label;

  const [helpOpen, setHelpOpen] = useState(false);
  const [assistantOpen, setAssistantOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const announcements = useAnnouncements();
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
          {(/^\/(monitor|assets)\/filters(\/|$)/.test(pathname) || pathname.includes('/search-filters')) && (
            // The spec's back-to-search button of the search-filters routes (its /search is
            // Locate's search for Locate's explorer, else Beacon, the keyword search whose
            // filters these lists are too).
            <Button
              component={RouterLink}
              to={pathname.startsWith('/locate/') ? '/locate' : '/beacon'}
              size="small"
              startIcon={<ArrowBackOutlined />}
              sx={{ whiteSpace: 'nowrap' }}
            >
              Back to search
            </Button>
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
          {onMonitor && filterBar && (
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
          <Tooltip title="Assistant">
            <IconButton aria-label="Assistant" onClick={() => setAssistantOpen(true)}>
              <AutoAwesomeOutlined />
            </IconButton>
          </Tooltip>
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
              aria-label={announcements.unread > 0 ? `Announcements, ${announcements.unread} unread` : 'Announcements'}
              onClick={(event) => announcements.open(event.currentTarget)}
              sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
            >
              {/* Without unread ones there is no badge at all: a hidden "0" would still be read. */}
              {announcements.unread > 0 ? (
                <Badge badgeContent={announcements.unread} color="error" max={99}>
                  <CampaignOutlined />
                </Badge>
              ) : (
                <CampaignOutlined />
              )}
            </IconButton>
          </Tooltip>
          <Tooltip title="Sightline products">
            <IconButton ref={menuButton} aria-label="Sightline products" onClick={() => setMenuOpen(true)}>
              <AppsOutlined />
            </IconButton>
          </Tooltip>
        </Stack>
      </Toolbar>

      <AssistantDrawer open={assistantOpen} onClose={() => setAssistantOpen(false)} />
      <HelpDrawer open={helpOpen} onClose={() => setHelpOpen(false)} />
      <AnnouncementsPopover anchor={announcements.anchor} onClose={announcements.close} fresh={announcements.fresh} />
      <CrossProductMenu
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
        onOpenHelp={() => {
          setMenuOpen(false);
          setHelpOpen(true);
        }}
        unreadAnnouncements={announcements.unread}
        onOpenAnnouncements={() => {
          setMenuOpen(false);
          announcements.open(menuButton.current);
        }}
      />
    </AppBar>
  );
}
