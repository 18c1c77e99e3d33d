import AddOutlined from '@mui/icons-material/AddOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import type { TenantToken } from '../../api/tenant';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { CreateTokenDialog } from '../../components/tenant/CreateTokenDialog';
import { useConfirm } from '../../hooks/useConfirm';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSnackbar } from '../../hooks/useSnackbar';
import { useRevokeTenantToken, useTenantTokensQuery, useTenantUsersQuery } from '../../hooks/useTenantQueries';
import { formatDateTime } from '../../lib/dateRange';
import { tokenLapse, tokenScopeLabel } from '../../lib/tenantLabels';
import { ActionsHeaderCell } from '../../components/table/ActionsHeaderCell';

const at = (seconds: number, none: string) => (seconds ? formatDateTime(new Date(seconds * 1000)) : none);

function state(token: TenantToken): { label: string; color: 'default' | 'success' | 'warning' } {
  const lapse = tokenLapse(token);
  if (lapse) return { label: lapse, color: lapse === 'Revoked' ? 'default' : 'warning' };
  if (token.user.disabled) return { label: 'User disabled', color: 'warning' };
  return { label: 'Active', color: 'success' };
}

/** /tenant/tokens: the API tokens of the tenant's users; create one, revoke one. */
export function TenantTokensPage() {
  const tokens = useTenantTokensQuery();
  const users = useTenantUsersQuery();
  const revoke = useRevokeTenantToken();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const [creating, setCreating] = useState(false);
  const me = useProfile().id;

  const askRevoke = (token: TenantToken) =>
    confirm({
      title: `Revoke ${token.name}?`,
      text: `Scripts using it as ${token.user.email} are refused from their next request. This cannot be undone.`,
      icon: 'warning',
      acceptLabel: 'Revoke',
      onAccept: () =>
        revoke.mutate(token.id, {
          onSuccess: () => snackbar.show({ text: `${token.name} revoked`, color: 'success' }),
          onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
        }),
    });

  const createButton = (
    <Button variant="contained" startIcon={<AddOutlined />} disabled={!users.data} onClick={() => setCreating(true)}>
      Create token
    </Button>
  );

  return (
    <>
      <PageHeader
        title="API tokens"
        subtitle="Long-lived tokens that let scripts call Sightline as one of your users."
        actions={createButton}
      />
      {tokens.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading API tokens">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={44} />
          ))}
        </Stack>
      )}
      {tokens.isError && <Alert severity="error">{tokens.error.message}</Alert>}
      {tokens.data?.length === 0 && (
        <EmptyState icon={KeyOutlined} title="No API tokens yet" actions={createButton}>
          Create a token for a user, copy it once, and give it to the script that calls the API for them.
        </EmptyState>
      )}
      {tokens.data && tokens.data.length > 0 && (
        <TableContainer component={Paper} variant="outlined" sx={{ borderRadius: 3 }}>
          <Table size="small" aria-label="API tokens">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>User</TableCell>
                <TableCell>Scope</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell>Last used</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>Made by</TableCell>
                <TableCell>State</TableCell>
                <ActionsHeaderCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {tokens.data.map((token) => {
                const s = state(token);
                return (
                  <TableRow key={token.id}>
                    <TableCell>{token.name}</TableCell>
                    <TableCell>
                      {token.user.name ? `${token.user.name} (${token.user.email})` : token.user.email}
                    </TableCell>
                    <TableCell>{tokenScopeLabel(token.scopes)}</TableCell>
                    <TableCell>{at(token.expiresAt, 'Never')}</TableCell>
                    <TableCell>{at(token.lastUsedAt, 'Never')}</TableCell>
                    <TableCell>{at(token.createdAt, '')}</TableCell>
                    <TableCell>{token.createdBy?.name ?? 'Its user'}</TableCell>
                    <TableCell>
                      <Chip size="small" label={s.label} color={s.color} variant="outlined" />
                    </TableCell>
                    <TableCell align="right">
                      {!token.revokedAt && (
                        <Button
                          size="small"
                          color="error"
                          disabled={revoke.isPending}
                          aria-label={`Revoke ${token.name} of ${token.user.email}`}
                          onClick={() => askRevoke(token)}
                        >
                          Revoke
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {creating && users.data && <CreateTokenDialog users={users.data} me={me} onClose={() => setCreating(false)} />}
    </>
  );
}
