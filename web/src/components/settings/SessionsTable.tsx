import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useConfirm } from '../../hooks/useConfirm';
import { useEndSessions, useSessionsQuery } from '../../hooks/useSessionsQuery';
import { useSnackbar } from '../../hooks/useSnackbar';
import { formatDateTime } from '../../lib/dateRange';
import { ActionsHeaderCell } from '../table/ActionsHeaderCell';

const at = (seconds: number) => formatDateTime(new Date(seconds * 1000));

/** Where the user is signed in; any other session can be ended at once. */
export function SessionsTable() {
  const sessions = useSessionsQuery();
  const end = useEndSessions();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  const run = (id: string | undefined, done: string) =>
    end.mutate(id, {
      onSuccess: () => snackbar.show({ text: done, color: 'success' }),
      onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
    });

  if (sessions.isPending) {
    return (
      <Stack spacing={1} role="status" aria-label="Loading your sessions">
        {[0, 1].map((row) => (
          <Skeleton key={row} variant="rounded" height={36} />
        ))}
      </Stack>
    );
  }
  if (sessions.isError) return <Alert severity="error">{sessions.error.message}</Alert>;
  return (
    <Stack spacing={2}>
      <Table size="small" aria-label="Your sessions">
        <TableHead>
          <TableRow>
            <TableCell>Device</TableCell>
            <TableCell>Address</TableCell>
            <TableCell>Last active</TableCell>
            <TableCell>Signed in</TableCell>
            <ActionsHeaderCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {sessions.data.map((s) => (
            <TableRow key={s.id}>
              <TableCell>
                {s.device} {s.current && <Chip size="small" label="This device" sx={{ ml: 1 }} />}
              </TableCell>
              <TableCell>{s.address || 'Unknown'}</TableCell>
              <TableCell>{at(s.lastSeenAt)}</TableCell>
              <TableCell>{at(s.createdAt)}</TableCell>
              <TableCell align="right">
                {!s.current && (
                  <Button
                    size="small"
                    color="error"
                    disabled={end.isPending}
                    aria-label={`End the session of ${s.device}, last active ${at(s.lastSeenAt)}`}
                    onClick={() => run(s.id, 'Session ended')}
                  >
                    End
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {others > 0 && (
        <div>
          <Button
            variant="outlined"
            color="error"
            disabled={end.isPending}
            onClick={() =>
              confirm({
                title: 'End every other session?',
                text: `This signs you out everywhere but here (${others} ${others === 1 ? 'session' : 'sessions'}).`,
                icon: 'warning',
                acceptLabel: 'End sessions',
                onAccept: () => run(undefined, 'Other sessions ended'),
              })
            }
          >
            End all other sessions
          </Button>
        </div>
      )}
    </Stack>
  );
}
