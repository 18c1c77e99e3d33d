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
import Typography from '@mui/material/Typography';
import type { OwnApiToken } from '../../api/settings';
import { useConfirm } from '../../hooks/useConfirm';
import { useOwnTokensQuery, useRevokeOwnToken } from '../../hooks/useOwnTokensQuery';
import { useSnackbar } from '../../hooks/useSnackbar';
import { formatDateTime } from '../../lib/dateRange';
import { tokenLapse, tokenScopeLabel } from '../../lib/tenantLabels';
import { ActionsHeaderCell } from '../table/ActionsHeaderCell';

const at = (seconds: number, none: string) => (seconds ? formatDateTime(new Date(seconds * 1000)) : none);

/**
 * The API tokens that act as the user, those a tenant admin made for them included (with who
 * made them); the user revokes any of them at once.
 */
export function ApiTokensTable() {
  const tokens = useOwnTokensQuery();
  const revoke = useRevokeOwnToken();
  const confirm = useConfirm();
  const snackbar = useSnackbar();

  if (tokens.isPending) {
    return (
      <Stack spacing={1} role="status" aria-label="Loading your API tokens">
        <Skeleton variant="rounded" height={36} />
      </Stack>
    );
  }
  if (tokens.isError) return <Alert severity="error">{tokens.error.message}</Alert>;
  if (tokens.data.length === 0) return <Typography color="text.secondary">No API token acts as you.</Typography>;
  const askRevoke = (token: OwnApiToken) =>
    confirm({
      title: `Revoke ${token.name}?`,
      text: 'Scripts using it are refused from their next request. This cannot be undone.',
      icon: 'warning',
      acceptLabel: 'Revoke',
      onAccept: () =>
        revoke.mutate(token.id, {
          onSuccess: () => snackbar.show({ text: `${token.name} revoked`, color: 'success' }),
          onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
        }),
    });
  return (
    <Table size="small" aria-label="Your API tokens">
      <TableHead>
        <TableRow>
          <TableCell>Name</TableCell>
          <TableCell>Scope</TableCell>
          <TableCell>Made by</TableCell>
          <TableCell>Expires</TableCell>
          <TableCell>Last used</TableCell>
          <TableCell>State</TableCell>
          <ActionsHeaderCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {tokens.data.map((token) => (
          <TableRow key={token.id}>
            <TableCell>{token.name}</TableCell>
            <TableCell>{tokenScopeLabel(token.scopes)}</TableCell>
            <TableCell>{token.createdBy ? `${token.createdBy.name} (tenant administrator)` : 'You'}</TableCell>
            <TableCell>{at(token.expiresAt, 'Never')}</TableCell>
            <TableCell>{at(token.lastUsedAt, 'Never')}</TableCell>
            <TableCell>
              <Chip size="small" variant="outlined" label={tokenLapse(token) ?? 'Active'} />
            </TableCell>
            <TableCell align="right">
              {!token.revokedAt && (
                <Button
                  size="small"
                  color="error"
                  disabled={revoke.isPending}
                  aria-label={`Revoke ${token.name}`}
                  onClick={() => askRevoke(token)}
                >
                  Revoke
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
