import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
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
import type { Export, ExportStatus } from '../api/exports';
import { EmptyState } from '../components/EmptyState';
import { LoadError } from '../components/LoadError';
import { PageHeader } from '../components/PageHeader';
import { useExportsQuery } from '../hooks/useExportQueries';
import { formatCount } from '../lib/countFormat';
import { formatDateTime } from '../lib/dateRange';

const statusLabel: Record<ExportStatus, { label: string; color: 'default' | 'info' | 'success' | 'error' }> = {
  pending: { label: 'Waiting', color: 'default' },
  running: { label: 'Writing', color: 'info' },
  ready: { label: 'Ready', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

const emailNote: Record<Export['emailStatus'], string> = {
  '': '',
  pending: 'the link will be e-mailed',
  sent: 'link e-mailed',
  off: 'not e-mailed: this server sends no e-mail',
  failed: 'the e-mail could not be sent',
};

/** The user's exports of the last 30 days, each downloadable while it lasts. */
export function ExportsPage() {
  const exports = useExportsQuery();
  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
      <PageHeader title="Exports" subtitle="Your exports of the last 30 days, newest first. Files are kept 30 days." />
      {exports.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading your exports">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      )}
      {exports.isError && (
        <LoadError onRetry={() => void exports.refetch()}>Your exports could not be loaded.</LoadError>
      )}
      {exports.data?.length === 0 && (
        <EmptyState
          icon={FileDownloadOutlined}
          title="No exports yet"
          actions={
            <Button variant="contained" component={RouterLink} to="/monitor/matches">
              Open the inbox
            </Button>
          }
        >
          Choose Export in the Monitor inbox or on Beacon results to write posts to a CSV or JSON file.
        </EmptyState>
      )}
      {exports.data && exports.data.length > 0 && (
        <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
          <Table aria-label="Exports">
            <TableHead>
              <TableRow>
                <TableCell>Requested</TableCell>
                <TableCell>Of</TableCell>
                <TableCell align="right">Posts</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Available until</TableCell>
                <TableCell align="right">File</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {exports.data.map((e) => (
                <ExportRow key={e.id} e={e} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}

function ExportRow({ e }: { e: Export }) {
  const status = statusLabel[e.status];
  return (
    <TableRow>
      <TableCell>{formatDateTime(new Date(e.createdAt * 1000))}</TableCell>
      <TableCell>
        {e.source === 'matches' ? 'Monitor matches' : 'Beacon results'}, {e.format.toUpperCase()}
        <Typography variant="body2" color="text.secondary">
          {e.columns.length} {e.columns.length === 1 ? 'column' : 'columns'}
          {emailNote[e.emailStatus] && ` · ${emailNote[e.emailStatus]}`}
        </Typography>
      </TableCell>
      <TableCell align="right">{formatCount(e.postCount)}</TableCell>
      <TableCell>
        <Chip size="small" label={status.label} color={status.color} />
        {e.status === 'failed' && (
          <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
            {e.error}
          </Typography>
        )}
      </TableCell>
      <TableCell>{formatDateTime(new Date(e.expiresAt * 1000))}</TableCell>
      <TableCell align="right">
        {e.status === 'ready' && e.downloadUrl && (
          <Button
            component="a"
            href={e.downloadUrl}
            startIcon={<DownloadOutlined />}
            aria-label={`Download the export of ${formatDateTime(new Date(e.createdAt * 1000))}`}
          >
            Download
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
