import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import HelpOutlineOutlined from '@mui/icons-material/HelpOutlineOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { useAreaNavigation } from '../hooks/useAreaNavigation';
import { areaIcons } from './areaIcons';
import { SideDrawer } from './SideDrawer';

/** The top bar's drawer of product areas; on small screens it also carries help and announcements. */
export function CrossProductMenu({
  open,
  onClose,
  onOpenHelp,
  onOpenAnnouncements,
  unreadAnnouncements = 0,
}: {
  open: boolean;
  onClose: () => void;
  onOpenHelp: () => void;
  onOpenAnnouncements: () => void;
  unreadAnnouncements?: number;
}) {
  const { areas, active, loading, open: openArea } = useAreaNavigation();
  const smallScreenOnly = { display: { xs: 'flex', sm: 'none' } };

  return (
    <SideDrawer open={open} onClose={onClose} title="Sightline products" closeLabel="Close products menu" width={320}>
      <List component="nav" aria-label="Products menu" sx={{ px: 1.5, py: 1 }}>
        {areas.map((area) => {
          const Icon = areaIcons[area.id];
          return (
            <ListItemButton
              key={area.id}
              component="a"
              href={area.href}
              target={area.newTab ? '_blank' : undefined}
              rel={area.newTab ? 'noopener' : undefined}
              selected={area.id === active}
              aria-current={area.id === active ? 'page' : undefined}
              onClick={(event) => {
                openArea(area, event);
                onClose();
              }}
              sx={{ mb: 0.5 }}
            >
              <ListItemIcon>
                {area.id === loading ? <CircularProgress size={20} aria-label={`Opening ${area.label}`} /> : <Icon />}
              </ListItemIcon>
              <ListItemText primary={area.label} />
              {area.newTab && <OpenInNewOutlined fontSize="small" color="action" />}
            </ListItemButton>
          );
        })}
      </List>
      <Box sx={smallScreenOnly}>
        <Divider sx={{ width: '100%' }} />
      </Box>
      <List sx={{ px: 1.5, ...smallScreenOnly, flexDirection: 'column' }}>
        <ListItemButton onClick={onOpenHelp}>
          <ListItemIcon>
            <HelpOutlineOutlined />
          </ListItemIcon>
          <ListItemText primary="Help and support" />
        </ListItemButton>
        <ListItemButton onClick={onOpenAnnouncements}>
          <ListItemIcon>
            <CampaignOutlined />
          </ListItemIcon>
          <ListItemText
            primary="Announcements"
            secondary={unreadAnnouncements > 0 ? `${unreadAnnouncements} unread` : undefined}
          />
        </ListItemButton>
      </List>
    </SideDrawer>
  );
}
