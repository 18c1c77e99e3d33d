import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import BookmarkBorderOutlined from '@mui/icons-material/BookmarkBorderOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { MonitorSearchSummary } from '../../api/monitor';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { SearchStatusChip } from '../../components/SearchStatusChip';
import { useSearchActions } from '../../hooks/useMonitorActions';
import { useSearchesQuery } from '../../hooks/useMonitorQueries';
import { useSearchBuilder } from '../../hooks/useSearchBuilder';

/** Whether a search may be paused or resumed: the states the switch applies to, by an editor. */
function canSwitch(s: MonitorSearchSummary): boolean {
  return s.canEdit && (s.status === 'active' || s.status === 'paused' || s.status === 'scheduled');
}

/**
 * Locate's saved searches: Monitor's saved searches (one entity in both areas), each with its
 * state, pause or resume, and a way to its matches.
 */
export function LocateSavedPage() {
  const searches = useSearchesQuery();
  const actions = useSearchActions();
  const builder = useSearchBuilder();
  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
      <Button component={RouterLink} to="/locate" startIcon={<ArrowBackOutlined />} sx={{ mb: 1 }}>
        Back to the search
      </Button>
      <Typography variant="h2" component="h1">
        Saved searches
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        The searches that run continuously and collect their matches in the Monitor inbox.
      </Typography>
      {searches.isPending ? (
        <Stack spacing={1} role="status" aria-label="Loading the saved searches">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      ) : searches.isError ? (
        <LoadError onRetry={() => void searches.refetch()}>{searches.error.message}</LoadError>
      ) : searches.data.length === 0 ? (
        <EmptyState
          icon={BookmarkBorderOutlined}
          title="No saved searches yet"
          actions={
            <Button variant="contained" onClick={() => builder.create()}>
              New saved search
            </Button>
          }
        >
          Save a Locate search with Save search to have its matches collected as they are posted.
        </EmptyState>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label="Saved searches">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>State</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Keywords</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Owner</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {searches.data.map((s) => (
                <TableRow key={s.id}>
                  <TableCell>
                    <Link component={RouterLink} to={`/monitor/${s.id}`} sx={{ fontWeight: 600 }}>
                      {s.value}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <SearchStatusChip status={s.status} />
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, maxWidth: 280 }}>
                    <Typography variant="body2" noWrap>
                      {s.search.keywords.join(', ') || '—'}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{s.owner.email}</TableCell>
                  <TableCell align="right">
                    {canSwitch(s) &&
                      (s.enabled ? (
                        <Button size="small" onClick={() => actions.pause(s)} aria-label={`Pause ${s.value}`}>
                          Pause
                        </Button>
                      ) : (
                        <Button size="small" onClick={() => void actions.resume(s)} aria-label={`Resume ${s.value}`}>
                          Resume
                        </Button>
                      ))}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
