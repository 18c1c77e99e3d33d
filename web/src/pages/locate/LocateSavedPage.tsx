import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import BookmarkBorderOutlined from '@mui/icons-material/BookmarkBorderOutlined';
import PlaylistAddOutlined from '@mui/icons-material/PlaylistAddOutlined';
import VisibilityOffOutlined from '@mui/icons-material/VisibilityOffOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { MonitorSearchSummary } from '../../api/monitor';
import { EmptyState } from '../../components/EmptyState';
import { CreateFilterDialog } from '../../components/filters/CreateFilterDialog';
import { LoadError } from '../../components/LoadError';
import { SearchStatusChip } from '../../components/SearchStatusChip';
import { useSearchActions } from '../../hooks/useMonitorActions';
import { useSearchesQuery } from '../../hooks/useMonitorQueries';
import { useSearchBuilder } from '../../hooks/useSearchBuilder';
import { useSnackbar } from '../../hooks/useSnackbar';

/** Set for good once a user ticks "Do not show again" on Locate's pause confirmation. */
export const SKIP_LOCATE_PAUSE_CONFIRM_COOKIE = 'sightline_skip_locate_pause_confirm';

/** Whether a search may be paused or resumed: the states the switch applies to, by an editor. */
function canSwitch(s: MonitorSearchSummary): boolean {
  return s.canEdit && (s.status === 'active' || s.status === 'paused' || s.status === 'scheduled');
}

/**
 * Locate's saved searches: Monitor's saved searches (one entity in both areas), each with its
 * state, pause or resume (the confirmation can be dismissed for good), a way to its matches, and
 * hiding (search-side.md section 4: hidden streams can be shown or hidden again). Hiding is the
 * user's own mark, kept by the server; Monitor still lists the search. At
 * /locate/saved/search-filters/new the saved-search create modal is open over it.
 */
export function LocateSavedPage({ creatingFilter = false }: { creatingFilter?: boolean }) {
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const searches = useSearchesQuery();
  const actions = useSearchActions();
  const builder = useSearchBuilder();
  const [showHidden, setShowHidden] = useState(false);
  const hiddenCount = searches.data?.filter((s) => s.hidden).length ?? 0;
  const shown = searches.data?.filter((s) => showHidden || !s.hidden) ?? [];
  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
      <Button component={RouterLink} to="/locate" startIcon={<ArrowBackOutlined />} sx={{ mb: 1 }}>
        Back to the search
      </Button>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <Typography variant="h2" component="h1">
          Saved searches
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button component={RouterLink} to="/locate/search-filters">
            Search filters
          </Button>
          <Button
            component={RouterLink}
            to="/locate/saved/search-filters/new"
            variant="outlined"
            startIcon={<PlaylistAddOutlined />}
          >
            Create search filter
          </Button>
        </Stack>
      </Stack>
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
        <>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
            <Typography variant="body2" color="text.secondary" role="status">
              {hiddenCount === 0
                ? 'No hidden streams.'
                : hiddenCount === 1
                  ? '1 hidden stream.'
                  : `${hiddenCount} hidden streams.`}
            </Typography>
            <FormControlLabel
              control={
                <Switch
                  checked={showHidden}
                  onChange={(event) => setShowHidden(event.target.checked)}
                  disabled={hiddenCount === 0 && !showHidden}
                />
              }
              label="Show hidden streams"
            />
          </Stack>
          {shown.length === 0 ? (
            <EmptyState icon={VisibilityOffOutlined} title="Every saved search is hidden">
              Turn on Show hidden streams to see them and show them again.
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
                  {shown.map((s) => (
                    <TableRow key={s.id}>
                      <TableCell>
                        <Link component={RouterLink} to={`/monitor/${s.id}`} sx={{ fontWeight: 600 }}>
                          {s.value}
                        </Link>
                        {s.hidden && <Chip size="small" variant="outlined" label="Hidden" sx={{ ml: 1 }} />}
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
                            <Button
                              size="small"
                              onClick={() =>
                                actions.pause(s, { doNotShowAgainCookie: SKIP_LOCATE_PAUSE_CONFIRM_COOKIE })
                              }
                              aria-label={`Pause ${s.value}`}
                            >
                              Pause
                            </Button>
                          ) : (
                            <Button
                              size="small"
                              onClick={() => void actions.resume(s)}
                              aria-label={`Resume ${s.value}`}
                            >
                              Resume
                            </Button>
                          ))}
                        <Button
                          size="small"
                          startIcon={s.hidden ? <VisibilityOutlined /> : <VisibilityOffOutlined />}
                          onClick={() => void actions.hide(s)}
                          aria-label={`${s.hidden ? 'Show' : 'Hide'} ${s.value}`}
                        >
                          {s.hidden ? 'Show' : 'Hide'}
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </>
      )}
      {creatingFilter && (
        <CreateFilterDialog
          context="saved-search"
          onClose={() => void navigate('/locate/saved')}
          onCreated={({ data: created, message }) => {
            snackbar.show({
              color: 'success',
              text: `Search filter “${created.name}” created.${message ? ` ${message}` : ''} Attach it to a saved search in the search builder’s Search filters panel.`,
            });
            void navigate('/locate/saved');
          }}
        />
      )}
    </Box>
  );
}
