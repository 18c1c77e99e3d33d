import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { BuiltInSource } from '../../api/sources';
import { formatAgo } from './sourceFormat';

const states: Record<BuiltInSource['state'], { label: string; color: 'success' | 'error' | 'default' }> = {
  running: { label: 'Running', color: 'success' },
  failing: { label: 'Failing', color: 'error' },
  idle: { label: 'Idle', color: 'default' },
};

function label(source: BuiltInSource): { name: string; kind: string } {
  if (source.kind === 'ingest') return { name: source.name, kind: 'Ingest API token' };
  return source.name === 'simulator'
    ? { name: 'Simulator', kind: 'Demo posts, shared by every tenant' }
    : { name: source.name, kind: 'Runs on the server' };
}

const count = new Intl.NumberFormat();

/**
 * The sources outside the sources table, read-only: the server's flags set the simulator, and
 * API tokens push the ingest sources, so there is nothing here to edit or delete. First, when
 * it comes before the sources table (offline, where these are all that bring posts).
 */
export function BuiltInSources({ sources, first = false }: { sources: BuiltInSource[]; first?: boolean }) {
  return (
    <>
      <Typography variant="h6" component="h2" sx={{ mt: first ? 0 : 4, mb: 0.5 }}>
        Built in
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        The server’s options set the simulator; API tokens push posts through the ingest API. Neither is edited here.
      </Typography>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2, mb: first ? 3 : 0 }}>
        <Table aria-label="Built-in sources" size="small">
          <TableHead>
            <TableRow>
              <TableCell>Source</TableCell>
              <TableCell>State</TableCell>
              <TableCell>Rate</TableCell>
              <TableCell>Posts</TableCell>
              <TableCell>Last post</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {sources.map((source) => {
              const { name, kind } = label(source);
              const state = states[source.state];
              const chip = <Chip size="small" label={state.label} color={state.color} variant="outlined" />;
              return (
                <TableRow key={`${source.kind}-${source.userId ?? 0}-${source.name}`}>
                  <TableCell>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {name}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {kind}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {source.lastError ? (
                      <Tooltip title={source.lastError}>
                        <span>{chip}</span>
                      </Tooltip>
                    ) : (
                      chip
                    )}
                  </TableCell>
                  <TableCell>
                    {source.ratePerSecond !== null
                      ? `${source.ratePerSecond} per second (set)`
                      : `${count.format(source.itemsLastHour ?? 0)} in the last hour`}
                  </TableCell>
                  <TableCell>
                    {count.format(source.count)} {source.kind === 'node' ? 'since the server started' : 'stored'}
                  </TableCell>
                  <TableCell>{source.kind === 'node' ? formatAgo(source.lastSuccess) : '–'}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
