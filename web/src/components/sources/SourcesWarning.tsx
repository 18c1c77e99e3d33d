import RssFeedOutlined from '@mui/icons-material/RssFeedOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { Link as RouterLink } from 'react-router';
import { useSourcesHealthQuery } from '../../hooks/useSourceQueries';

/** The top bar's link to /sources for tenant admins, with a warning badge while sources fail or the pipeline is behind. */
export function SourcesWarning() {
  const health = useSourcesHealthQuery(true);
  const failing = health.data?.failing ?? 0;
  const warnings = health.data?.warnings ?? [];
  const problems = [...(failing > 0 ? [`${failing} failing`] : []), ...warnings.map((w) => w.message)];
  const label = problems.length > 0 ? `Sources: ${problems.join(' ')}` : 'Sources';
  const count = failing + warnings.length;
  return (
    <Tooltip title={label}>
      <IconButton
        aria-label={label}
        component={RouterLink}
        to="/sources"
        sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
      >
        {count > 0 ? (
          <Badge badgeContent={count} color="warning">
            <RssFeedOutlined />
          </Badge>
        ) : (
          <RssFeedOutlined />
        )}
      </IconButton>
    </Tooltip>
  );
}
