import DashboardCustomizeOutlined from '@mui/icons-material/DashboardCustomizeOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import FilterAltOutlined from '@mui/icons-material/FilterAltOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import GridViewOutlined from '@mui/icons-material/GridViewOutlined';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import LocationOnOutlined from '@mui/icons-material/LocationOnOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import MapOutlined from '@mui/icons-material/MapOutlined';
import PlaylistAddOutlined from '@mui/icons-material/PlaylistAddOutlined';
import ViewListOutlined from '@mui/icons-material/ViewListOutlined';
import SavedSearchOutlined from '@mui/icons-material/SavedSearchOutlined';
import StarOutlined from '@mui/icons-material/StarOutlined';
import MenuOpenOutlined from '@mui/icons-material/MenuOpenOutlined';
import MenuOutlined from '@mui/icons-material/MenuOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMemo, useState } from 'react';
import { useMatchCountsBySearchQuery, useMatchCountsQuery } from '../hooks/useMatchesQuery';
import { useSearchesQuery } from '../hooks/useMonitorQueries';
import { useProfile } from '../hooks/useProfileQuery';
import { readSidebarOpen, writeSidebarOpen } from '../lib/matchesSidebar';
import { type SidebarPage, SidebarSection } from './SidebarSection';

// Paths are relative to the Monitor layout, so the /assets alias keeps its own addresses.
const sections = (unread: number | undefined): { title: string; pages: SidebarPage[] }[] => [
  {
    title: 'Dashboard',
    pages: [
      { label: 'Dashboard', to: 'dashboard', icon: DashboardOutlined },
      { label: 'Customize', to: 'customize', icon: DashboardCustomizeOutlined },
    ],
  },
  {
    title: 'Inbox',
    pages: [
      {
        label: 'Matches',
        to: 'matches',
        icon: InboxOutlined,
        unreadCount: unread,
        pages: [
          { label: 'Grid', to: 'matches/grid', icon: GridViewOutlined },
          { label: 'List', to: 'matches/list', icon: ViewListOutlined },
          { label: 'Map', to: 'matches/map', icon: MapOutlined },
        ],
      },
    ],
  },
  { title: 'Groups', pages: [{ label: 'Search groups', to: 'groups', icon: FolderOutlined }] },
  {
    title: 'Filters',
    pages: [
      { label: 'Search filters', to: 'filters', icon: FilterAltOutlined },
      { label: 'New filter list', to: 'filters/new', icon: PlaylistAddOutlined },
    ],
  },
  {
    title: 'Configurations',
    pages: [
      { label: 'Location configurations', to: 'configurations', icon: LocationOnOutlined },
      { label: 'Assets', to: 'assets', icon: ShieldOutlined },
    ],
  },
];

/**
 * The Monitor area's navigation panel, the spec's matches sidebar: open, or closed to a mini
 * icon column. It starts closed on small screens until the user opens or closes it; that choice
 * is remembered.
 */
export function MonitorNavigation() {
  const theme = useTheme();
  const profile = useProfile();
  const smallScreen = useMediaQuery(theme.breakpoints.down('md'));
  const [chosen, setChosen] = useState(() => readSidebarOpen(profile.id));
  const mini = chosen === null ? smallScreen : !chosen;
  const toggle = () => {
    setChosen(mini);
    writeSidebarOpen(profile.id, mini);
  };
  const toggleLabel = mini ? 'Open the sidebar' : 'Close the sidebar';
  const counts = useMatchCountsQuery();
  const searches = useSearchesQuery();
  const ids = useMemo(() => (searches.data ?? []).map((s) => s.id), [searches.data]);
  const perSearch = useMatchCountsBySearchQuery(ids);
  // Favourites first, each with its unread matches.
  const searchPages = [...(searches.data ?? [])]
    .sort((a, b) => Number(b.favourite) - Number(a.favourite) || a.value.localeCompare(b.value))
    .map((search): SidebarPage => ({
      label: search.value,
      to: String(search.id),
      icon: search.favourite ? StarOutlined : SavedSearchOutlined,
      unreadCount: perSearch.data?.find((c) => c.monitorSearchId === search.id)?.unreadCount,
    }));
  return (
    <Box
      component="nav"
      aria-label="Monitor"
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
      <Box sx={{ display: 'flex', justifyContent: mini ? 'center' : 'flex-end', px: 1 }}>
        <Tooltip title={toggleLabel} placement="right">
          <IconButton size="small" aria-label={toggleLabel} aria-expanded={!mini} onClick={toggle}>
            {mini ? <MenuOutlined fontSize="small" /> : <MenuOpenOutlined fontSize="small" />}
          </IconButton>
        </Tooltip>
      </Box>
      {sections(counts.data?.unreadCount).map((section) => (
        <SidebarSection key={section.title} title={section.title} pages={section.pages} mini={mini} />
      ))}
      <SidebarSection title="Saved searches" pages={searchPages} loading={searches.isPending} mini={mini} />
    </Box>
  );
}
