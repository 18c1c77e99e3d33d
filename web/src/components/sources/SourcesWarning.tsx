import RssFeedOutlined from '@mui/icons-material/RssFeedOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { Link as RouterLink } from 'react-router';
import { useSourcesHealthQuery } from '../../hooks/useSourceQueries';

/** The top bar's link to /sources for tenant admins, with a warning badge while sources fail. */
export function SourcesWarning() {
  const health = useSourcesHealthQuery(true);
  const failing = health.data?.failing ?? 0;
  const label = failing > 0 ? `Sources: ${failing} failing` : 'Sources';
  return (
    <Tooltip title={label}>
      <IconButton
        aria-label={label}
        component={RouterLink}
        to="/sources"
        sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
      >
        {failing > 0 ? (
          <Badge badgeContent={failing} color="warning">
            <RssFeedOutlined />
          </Badge>
        ) : (
          <RssFeedOutlined />
        )}
      </IconButton>
    </Tooltip>
  );
}
