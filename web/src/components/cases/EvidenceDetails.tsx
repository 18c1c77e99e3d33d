import Typography from '@mui/material/Typography';
import { isCapturing } from '../../api/evidence';
import { ApiError } from '../../api/transport';
import { useEvidenceQuery } from '../../hooks/useCaseQueries';

/** An evidence item's files with their SHA-256 and its trusted timestamps, when the server has them. */
export function EvidenceDetails({ id }: { id: string }) {
  const evidence = useEvidenceQuery(id);
  if (evidence.isPending) return <Typography variant="body2">Loading the evidence…</Typography>;
  if (evidence.isError) {
    const missing = evidence.error instanceof ApiError && evidence.error.status === 404;
    return (
      <Typography variant="body2" color="text.secondary">
        {missing
          ? 'The evidence record is not available on this server.'
          : 'The evidence could not be loaded; reload the page to try again.'}
      </Typography>
    );
  }
  const e = evidence.data;
  if (isCapturing(e)) {
    return (
      <Typography variant="body2" role="status">
        Being captured ({e.progress}%): its files, hashes and timestamps show here when it ends.
      </Typography>
    );
  }
  return (
    <div>
      <Typography variant="body2">
        Captured {e.capturedAt ? new Date(e.capturedAt).toLocaleString() : ''} by {e.capturedBy} · {e.state}
      </Typography>
      <ul style={{ margin: '4px 0', paddingLeft: 20 }}>
        {e.files.map((f) => (
          <li key={f.name}>
            <Typography variant="caption" sx={{ wordBreak: 'break-all' }}>
              {f.name} · SHA-256 {f.sha256} · {f.size} bytes
            </Typography>
          </li>
        ))}
      </ul>
      <Typography variant="caption" color="text.secondary">
        {e.timestamps.length === 0
          ? 'No trusted timestamp.'
          : e.timestamps.map((t) => `Timestamped by ${t.tsa} at ${new Date(t.time).toLocaleString()}`).join(' · ')}
      </Typography>
    </div>
  );
}
