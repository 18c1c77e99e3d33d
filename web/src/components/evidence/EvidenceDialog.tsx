import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { evidenceBundleUrl, evidenceFileUrl, isCapturing, type Evidence } from '../../api/evidence';
import { useEvidenceQuery } from '../../hooks/useEvidenceQueries';
import { LoadError } from '../LoadError';

const STEPS: Record<string, string> = {
  page: 'Fetching the page',
  media: 'Fetching the media',
  browser: 'Taking the screenshot and PDF',
  timestamp: 'Timestamping the hashes',
};

const OUTCOMES: Record<string, string> = {
  done: 'Captured',
  partial: 'Captured in part',
  failed: 'The capture failed',
  deleted: 'Deleted: only the hashes remain',
};

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '';
}

/** A capture's progress, then its files with their SHA-256 and its timestamps. */
export function EvidenceDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const query = useEvidenceQuery(id);
  const evidence = query.data;
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="evidence-title">
      <DialogTitle id="evidence-title">Evidence capture {id}</DialogTitle>
      <DialogContent>
        {query.isError && <LoadError onRetry={() => void query.refetch()}>The capture could not be loaded.</LoadError>}
        {evidence && <EvidenceRecord evidence={evidence} />}
        {!evidence && !query.isError && <LinearProgress aria-label="Loading the capture" />}
      </DialogContent>
      <DialogActions>
        {evidence && !isCapturing(evidence) && evidence.state !== 'deleted' && (
          <Button href={evidenceBundleUrl(id)} download>
            Download bundle
          </Button>
        )}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * A record as the capture dialogs show it: while it is captured, the step and its progress (a
 * live event or the poll moves it on); then the outcome, who captured it and when, what failed,
 * every file with its size and SHA-256, and the trusted timestamps.
 */
export function EvidenceRecord({ evidence }: { evidence: Evidence }) {
  if (isCapturing(evidence)) {
    return (
      <Box role="status" sx={{ py: 2 }}>
        <Typography gutterBottom>
          {evidence.state === 'pending' ? 'Waiting for a capture worker…' : (STEPS[evidence.step] ?? 'Capturing…')}
        </Typography>
        <LinearProgress variant="determinate" value={evidence.progress} aria-label="Capture progress" />
      </Box>
    );
  }
  return (
    <>
      <Typography role="status" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {OUTCOMES[evidence.state] ?? evidence.state}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {when(evidence.capturedAt)} by {evidence.capturedBy}
        {evidence.previousId ? ` · captures again record ${evidence.previousId}` : ''}
      </Typography>
      {evidence.errors.map((e) => (
        <Alert key={e} severity="warning" sx={{ mt: 1 }}>
          {e}
        </Alert>
      ))}
      {evidence.warnings.map((w) => (
        <Alert key={w} severity="info" sx={{ mt: 1 }}>
          {w}
        </Alert>
      ))}
      <Table size="small" sx={{ mt: 2 }} aria-label="Files">
        <TableHead>
          <TableRow>
            <TableCell>File</TableCell>
            <TableCell align="right">Size</TableCell>
            <TableCell>SHA-256</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {evidence.files.map((f) => (
            <TableRow key={f.name}>
              <TableCell>
                {evidence.state === 'deleted' ? (
                  f.name
                ) : (
                  <Link href={evidenceFileUrl(evidence.id, f.name)} download>
                    {f.name}
                  </Link>
                )}
              </TableCell>
              <TableCell align="right">{size(f.size)}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>{f.sha256}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Timestamps
      </Typography>
      {evidence.timestamps.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          None.
        </Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 3 }}>
          {evidence.timestamps.map((t) => (
            <li key={t.tsa}>
              <Typography variant="body2">
                {when(t.time)} by {t.tsa}
              </Typography>
            </li>
          ))}
        </Box>
      )}
    </>
  );
}
