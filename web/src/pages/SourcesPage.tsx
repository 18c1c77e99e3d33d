import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import RssFeedOutlined from '@mui/icons-material/RssFeedOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Source } from '../api/sources';
import { EmptyState } from '../components/EmptyState';
import { BuiltInSources } from '../components/sources/BuiltInSources';
import { LoadError } from '../components/LoadError';
import { PageHeader } from '../components/PageHeader';
import { SourceDialog } from '../components/sources/SourceDialog';
import { SourcePreviewList } from '../components/sources/SourcePreviewList';
import { formatAgo, formatSeconds, typeLabel } from '../components/sources/sourceFormat';
import { useNow } from '../hooks/useNow';
import { SourceStateChip } from '../components/sources/SourceStateChip';
import { Sparkline } from '../components/sources/Sparkline';
import { useConfirm } from '../hooks/useConfirm';
import { useProfile } from '../hooks/useProfileQuery';
import { useSnackbar } from '../hooks/useSnackbar';
import {
  useDeleteSource,
  useSaveSource,
  useSourcesHealthQuery,
  useSourcesQuery,
  useSourceTypesQuery,
  useTestSource,
} from '../hooks/useSourceQueries';

type Editing = { source?: Source } | null;

/** The tenant's content sources and their health, for tenant admins (issue #16). */
export function SourcesPage() {
  const profile = useProfile();
  if (!profile.is_tenant_admin) {
    return (
      <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
        <PageHeader title="Sources" />
        <Alert severity="info">Only your tenant’s administrators manage its content sources.</Alert>
      </Box>
    );
  }
  return <SourcesTable />;
}

function SourcesTable() {
  const sources = useSourcesQuery();
  const types = useSourceTypesQuery();
  const health = useSourcesHealthQuery(true);
  const save = useSaveSource();
  const remove = useDeleteSource();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const [editing, setEditing] = useState<Editing>(null);
  const [testing, setTesting] = useState<Source | null>(null);
  const test = useTestSource();
  const runTest = (source: Source) => {
    setTesting(source);
    test.mutate({ id: source.id, input: {} });
  };

  const toggle = (source: Source, enabled: boolean) =>
    save.mutate(
      { id: source.id, input: { enabled } },
      {
        onSuccess: () =>
          snackbar.show({ text: `${source.name} ${enabled ? 'enabled' : 'disabled'}.`, color: 'success' }),
        onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
      },
    );

  const askDelete = (source: Source) =>
    confirm({
      title: `Delete ${source.name}?`,
      text: 'The source stops fetching and is removed. Posts it stored stay.',
      icon: 'warning',
      acceptLabel: 'Delete',
      onAccept: () =>
        remove.mutate(source.id, {
          onSuccess: () => snackbar.show({ text: `${source.name} deleted.`, color: 'success' }),
          onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
        }),
    });

  const counts = (sources.data ?? []).reduce<Record<string, number>>((acc, s) => {
    acc[s.health.state] = (acc[s.health.state] ?? 0) + 1;
    return acc;
  }, {});
  const pipelineWarnings = health.data?.warnings ?? [];
  const offline = health.data?.offline === true;
  const waiting = offline ? (sources.data ?? []).filter((s) => waitsForNetwork(s.health)).length : 0;
  const failing = (counts.failing ?? 0) + (counts.unreachable ?? 0) - waiting;
  // Sources that worked and stopped (the top bar's count, here from the rows themselves so the
  // two never disagree); those that never reached their address are the offline notice's.
  const stopped = (sources.data ?? []).filter(
    (s) => (s.health.state === 'failing' || s.health.state === 'unreachable') && Boolean(s.health.lastSuccess),
  ).length;
  const builtIn = health.data?.builtIn ?? [];

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
      <PageHeader
        title="Sources"
        subtitle="What the server reads, and how each source is doing. Changes take effect at once."
        actions={
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setEditing({})} disabled={!types.data}>
            Add source
          </Button>
        }
      />
      {pipelineWarnings.map((w) => (
        <Alert key={w.kind} severity="warning" sx={{ mb: 2 }}>
          {w.message}
        </Alert>
      ))}
      {sources.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading the sources">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      )}
      {sources.isError && (
        <LoadError onRetry={() => void sources.refetch()}>The sources could not be loaded.</LoadError>
      )}
      {sources.data?.length === 0 && (
        <EmptyState
          icon={RssFeedOutlined}
          title="No sources"
          actions={
            <Button variant="contained" onClick={() => setEditing({})} disabled={!types.data}>
              Add source
            </Button>
          }
        >
          Add a news feed, a Mastodon instance or another source, and its posts flow into searches and the inbox.
        </EmptyState>
      )}
      {sources.data && sources.data.length > 0 && (
        <>
          {offline && (
            <Alert severity="info" sx={{ mb: 2 }}>
              <AlertTitle>No internet</AlertTitle>
              {health.data?.message}
            </Alert>
          )}
          {/* Offline, the built-in sources are all that brings posts: they come first. */}
          {offline && builtIn.length > 0 && <BuiltInSources sources={builtIn} first />}
          {stopped > 0 && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              {stopped === 1 ? 'One source that worked has' : `${stopped} sources that worked have`} stopped. The last
              error says why.
            </Alert>
          )}
          <Typography color="text.secondary" sx={{ mb: 1 }} aria-live="polite">
            {sources.data.length === 1 ? 'One source' : `${sources.data.length} sources`}: {counts.ok ?? 0} OK,{' '}
            {counts.degraded ?? 0} degraded, {failing} failing or unreachable,{' '}
            {waiting > 0 && `${waiting} waiting for the network, `}
            {counts.disabled ?? 0} disabled.
          </Typography>
          <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
            <Table aria-label="Sources" size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Source</TableCell>
                  <TableCell>State</TableCell>
                  <TableCell>Last hour</TableCell>
                  <TableCell>Lag</TableCell>
                  <TableCell>Last success</TableCell>
                  <TableCell>Last error</TableCell>
                  <TableCell align="right">Retries / dropped</TableCell>
                  <TableCell>Enabled</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {sources.data.map((source) => (
                  <SourceRow
                    key={source.id}
                    source={source}
                    offline={offline}
                    onToggle={(enabled) => toggle(source, enabled)}
                    onEdit={() => setEditing({ source })}
                    onTest={() => runTest(source)}
                    onDelete={() => askDelete(source)}
                  />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
      {!(offline && sources.data && sources.data.length > 0) && builtIn.length > 0 && (
        <BuiltInSources sources={builtIn} />
      )}
      {editing && types.data && (
        <SourceDialog
          open
          source={editing.source}
          types={types.data}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            snackbar.show({ text: `${saved.name} saved.`, color: 'success' });
          }}
        />
      )}
      {testing && (
        <Dialog open onClose={() => setTesting(null)} fullWidth maxWidth="sm" aria-labelledby="source-test-title">
          <DialogTitle id="source-test-title">Test of {testing.name}</DialogTitle>
          <DialogContent>
            {test.isPending && <Alert severity="info">Fetching once…</Alert>}
            {test.isError && <Alert severity="error">{test.error.message}</Alert>}
            {test.data && <SourcePreviewList preview={test.data} />}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setTesting(null)}>Close</Button>
          </DialogActions>
        </Dialog>
      )}
    </Box>
  );
}

function SourceRow({
  source,
  offline,
  onToggle,
  onEdit,
  onTest,
  onDelete,
}: {
  source: Source;
  /** The server is offline: a source that never reached its address waits for the network. */
  offline: boolean;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onTest: () => void;
  onDelete: () => void;
}) {
  const h = source.health;
  const now = useNow().getTime();
  const waiting = offline && waitsForNetwork(h);
  return (
    <TableRow data-testid={`source-${source.id}`}>
      <TableCell>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {source.name}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {typeLabel(source.type)}
        </Typography>
      </TableCell>
      <TableCell>
        {waiting ? (
          <Chip size="small" variant="outlined" label="Waiting for the network" />
        ) : (
          <SourceStateChip health={h} />
        )}
        {h.gap && (
          <Typography variant="caption" color="warning.main" sx={{ display: 'block' }}>
            Gap: silent {formatSeconds(h.silenceSeconds ?? 0)}
          </Typography>
        )}
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Sparkline values={h.minutes} label={`${h.itemsLastHour} items in the last hour, per minute`} />
          <Typography variant="body2">{h.itemsLastHour}</Typography>
        </Stack>
      </TableCell>
      <TableCell>{h.lagSeconds === null ? '–' : formatSeconds(h.lagSeconds)}</TableCell>
      <TableCell>{formatAgo(h.lastSuccess, now)}</TableCell>
      <TableCell sx={{ maxWidth: 320 }}>
        {waiting ? (
          <Typography variant="body2" color="text.secondary">
            Paused until the server reaches the internet
          </Typography>
        ) : h.lastError ? (
          <>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {h.lastError.message}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatAgo(h.lastError.at, now)}
            </Typography>
          </>
        ) : (
          '–'
        )}
      </TableCell>
      <TableCell align="right">
        {h.retries} / {h.deadLettered}
      </TableCell>
      <TableCell>
        <Switch
          checked={source.enabled}
          onChange={(event) => onToggle(event.target.checked)}
          slotProps={{ input: { 'aria-label': `Enable ${source.name}` } }}
        />
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <Tooltip title="Edit">
          <IconButton aria-label={`Edit ${source.name}`} onClick={onEdit} size="small">
            <EditOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Test: fetch once and preview">
          <IconButton aria-label={`Test ${source.name}`} onClick={onTest} size="small">
            <PlayArrowOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Delete">
          <IconButton aria-label={`Delete ${source.name}`} onClick={onDelete} size="small">
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      </TableCell>
    </TableRow>
  );
}

/** A source that never reached its address: while the server is offline it waits, it has not failed. */
function waitsForNetwork(h: Source['health']): boolean {
  return h.state === 'unreachable' && !h.lastSuccess;
}
