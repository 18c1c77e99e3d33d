import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import type { SvgIconComponent } from '@mui/icons-material';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import { useId, useState } from 'react';
import { Link as RouterLink, useLocation, useResolvedPath } from 'react-router';
import { formatCount } from '../lib/countFormat';
import { visuallyHidden } from '../lib/visuallyHidden';

export interface SidebarPage {
  label: string;
  /** A router path, relative to the area's layout route. */
  to: string;
  icon: SvgIconComponent;
  /** Unread results; the badge hides at 0 or when unknown. */
  unreadCount?: number;
  /** Makes this entry a collapsible group of pages. */
  pages?: SidebarPage[];
}

const SKELETON_ROWS = 5;

function unreadLabel(count: number | undefined): string | undefined {
  return count ? `Unread results: ${count}` : undefined;
}

function PageIcon({ page, mini }: { page: SidebarPage; mini: boolean }) {
  const Icon = page.icon;
  return (
    <Badge
      color="primary"
      badgeContent={page.unreadCount ? formatCount(page.unreadCount) : undefined}
      invisible={!page.unreadCount || !mini}
      overlap="circular"
    >
      <Icon fontSize="small" />
    </Badge>
  );
}

/** The unread count beside an entry's label; nothing at 0 or when unknown. */
function UnreadCount({ count }: { count: number | undefined }) {
  if (!count) return null;
  return (
    <Box
      component="span"
      sx={{
        fontSize: 12,
        fontWeight: 650,
        px: 1,
        mx: 0.5,
        borderRadius: 5,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
      }}
    >
      {formatCount(count)}
    </Box>
  );
}

function useIsCurrent(to: string): boolean {
  const { pathname } = useLocation();
  const resolved = useResolvedPath(to);
  return pathname === resolved.pathname || pathname.startsWith(`${resolved.pathname}/`);
}

function PageItem({ page, mini, nested }: { page: SidebarPage; mini: boolean; nested?: boolean }) {
  const current = useIsCurrent(page.to);
  const unread = unreadLabel(page.unreadCount);
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <Tooltip title={mini ? page.label : (unread ?? '')} placement="right" describeChild>
        <ListItemButton
          component={RouterLink}
          to={page.to}
          selected={current}
          aria-current={current ? 'page' : undefined}
          aria-label={mini ? page.label : undefined}
          sx={{ pl: nested && !mini ? 5.5 : 1.5, py: 0.75, mb: 0.25, justifyContent: mini ? 'center' : undefined }}
        >
          <ListItemIcon sx={mini ? { minWidth: 0 } : undefined}>
            <PageIcon page={page} mini={mini} />
          </ListItemIcon>
          {!mini && (
            <ListItemText primary={page.label} slotProps={{ primary: { variant: 'body2', sx: { fontWeight: 550 } } }} />
          )}
          {!mini && <UnreadCount count={page.unreadCount} />}
        </ListItemButton>
      </Tooltip>
    </ListItem>
  );
}

function PageGroup({ page, mini }: { page: SidebarPage; mini: boolean }) {
  const current = useIsCurrent(page.to);
  const [expanded, setExpanded] = useState(current);
  const groupId = useId();
  // The mini rail has no room for nesting: the group's own page stands for it.
  if (mini) return <PageItem page={page} mini />;
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListItemButton
        onClick={() => setExpanded((value) => !value)}
        aria-expanded={expanded}
        aria-controls={groupId}
        sx={{ pl: 1.5, py: 0.75, mb: 0.25 }}
      >
        <ListItemIcon>
          <PageIcon page={page} mini={false} />
        </ListItemIcon>
        <ListItemText primary={page.label} slotProps={{ primary: { variant: 'body2', sx: { fontWeight: 550 } } }} />
        <UnreadCount count={page.unreadCount} />
        {expanded ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ListItemButton>
      <Collapse in={expanded} id={groupId}>
        <List disablePadding>
          {page.pages?.map((child) => (
            <PageItem key={child.to} page={child} mini={false} nested />
          ))}
        </List>
      </Collapse>
    </ListItem>
  );
}

/** One titled section of an area's navigation panel. */
export function SidebarSection({
  title,
  pages,
  loading = false,
  mini = false,
}: {
  title: string;
  pages: SidebarPage[];
  loading?: boolean;
  mini?: boolean;
}) {
  const titleId = useId();
  return (
    <List
      dense
      aria-labelledby={titleId}
      sx={{ px: 1, py: 0.5 }}
      subheader={
        <ListSubheader
          id={titleId}
          disableSticky
          sx={{
            bgcolor: 'transparent',
            lineHeight: '32px',
            fontSize: 11,
            fontWeight: 700,
            letterSpacing: '0.08em',
            textTransform: 'uppercase',
            px: 1.5,
            // The mini variant keeps the title for screen readers only.
            ...(mini && visuallyHidden),
          }}
        >
          {title}
        </ListSubheader>
      }
    >
      {loading && pages.length === 0 ? (
        <ListItem disablePadding sx={{ display: 'block' }}>
          <Box role="status" aria-label={`Loading ${title}`}>
            {Array.from({ length: SKELETON_ROWS }, (_, row) => (
              <Skeleton key={row} variant="rounded" height={28} sx={{ mx: 1.5, my: 0.75 }} />
            ))}
          </Box>
        </ListItem>
      ) : (
        pages.map((page) =>
          page.pages ? (
            <PageGroup key={page.to} page={page} mini={mini} />
          ) : (
            <PageItem key={page.to} page={page} mini={mini} />
          ),
        )
      )}
    </List>
  );
}
