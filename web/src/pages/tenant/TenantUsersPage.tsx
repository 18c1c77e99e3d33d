import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
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
import type { TenantUser } from '../../api/tenant';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { CreateUserDialog } from '../../components/tenant/CreateUserDialog';
import { EditUserDialog } from '../../components/tenant/EditUserDialog';
import { useConfirm } from '../../hooks/useConfirm';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSnackbar } from '../../hooks/useSnackbar';
import {
  useResetTenantUserMfa,
  useSetTenantUserDisabled,
  useTenantOrganizationsQuery,
  useTenantUsersQuery,
} from '../../hooks/useTenantQueries';
import { formatDateTime } from '../../lib/dateRange';
import { accessFlags } from '../../lib/tenantLabels';
import { ActionsHeaderCell } from '../../components/table/ActionsHeaderCell';

const on = (seconds: number) => formatDateTime(new Date(seconds * 1000));

/**
 * /tenant/users: the tenant's users; create, change role and subscription, disable and enable,
 * and reset the two-step verification of someone who lost their authenticator.
 */
export function TenantUsersPage() {
  const profile = useProfile();
  const users = useTenantUsersQuery();
  const organizations = useTenantOrganizationsQuery();
  const setDisabled = useSetTenantUserDisabled();
  const resetMfa = useResetTenantUserMfa();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TenantUser | null>(null);

  const toggle = (user: TenantUser) => {
    const who = user.name || user.email;
    const run = () =>
      setDisabled.mutate(
        { id: user.id, disabled: !user.disabled },
        {
          onSuccess: () =>
            snackbar.show({ text: user.disabled ? `${who} enabled` : `${who} disabled`, color: 'success' }),
          onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
        },
      );
    if (user.disabled) {
      run();
      return;
    }
    confirm({
      title: `Disable ${who}?`,
      text: 'They are signed out everywhere at once, their API tokens stop working and they cannot sign in until you enable them again.',
      icon: 'warning',
      acceptLabel: 'Disable',
      onAccept: run,
    });
  };

  const askResetMfa = (user: TenantUser) => {
    const who = user.name || user.email;
    confirm({
      title: `Reset two-step verification of ${who}?`,
      text: 'Their authenticator app and recovery codes stop working; they sign in with their password alone until they turn two-step verification on again. The reset is recorded in the audit log.',
      icon: 'warning',
      acceptLabel: 'Reset',
      onAccept: () =>
        resetMfa.mutate(user.id, {
          onSuccess: () => snackbar.show({ text: `Two-step verification of ${who} reset`, color: 'success' }),
          onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
        }),
    });
  };

  const createButton = (
    <Button
      variant="contained"
      startIcon={<PersonAddOutlined />}
      disabled={!organizations.data}
      onClick={() => setCreating(true)}
    >
      Create user
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Users"
        subtitle="Everyone who signs in to your tenant's organizations."
        actions={createButton}
      />
      {users.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading users">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={44} />
          ))}
        </Stack>
      )}
      {users.isError && <Alert severity="error">{users.error.message}</Alert>}
      {users.data?.length === 0 && (
        <EmptyState icon={PeopleOutlined} title="No users yet" actions={createButton}>
          Create a user in one of your organizations and give them their first password.
        </EmptyState>
      )}
      {users.data && users.data.length > 0 && (
        <TableContainer component={Paper} variant="outlined" sx={{ borderRadius: 3 }}>
          <Table size="small" aria-label="Users">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>E-mail</TableCell>
                <TableCell>Organization</TableCell>
                <TableCell>Role</TableCell>
                <TableCell>Subscription</TableCell>
                <TableCell>Created</TableCell>
                <ActionsHeaderCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {users.data.map((user) => {
                const me = user.id === profile.id;
                const who = user.name || user.email;
                return (
                  <TableRow key={user.id} sx={user.disabled ? { '& td': { color: 'text.secondary' } } : undefined}>
                    <TableCell>
                      {user.name}
                      {user.is_tenant_admin && <Chip size="small" label="Tenant admin" sx={{ ml: 1 }} />}
                      {user.disabled && <Chip size="small" color="warning" label="Disabled" sx={{ ml: 1 }} />}
                    </TableCell>
                    <TableCell>{user.email}</TableCell>
                    <TableCell>{user.organization.name}</TableCell>
                    <TableCell sx={{ textTransform: 'capitalize' }}>{user.role}</TableCell>
                    <TableCell>
                      {accessFlags
                        .filter((f) => user.acl[f.name])
                        .map((f) => f.label)
                        .join(', ') || 'None'}
                    </TableCell>
                    <TableCell>{on(user.createdAt)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {me ? (
                        <Chip size="small" label="You" />
                      ) : (
                        <>
                          <Button size="small" aria-label={`Change ${who}`} onClick={() => setEditing(user)}>
                            Change
                          </Button>
                          {user.is_mfa_enabled && (
                            <Button
                              size="small"
                              disabled={resetMfa.isPending}
                              aria-label={`Reset two-step verification of ${who}`}
                              onClick={() => askResetMfa(user)}
                            >
                              Reset 2-step
                            </Button>
                          )}
                          <Button
                            size="small"
                            color={user.disabled ? 'primary' : 'error'}
                            disabled={setDisabled.isPending}
                            aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${who}`}
                            onClick={() => toggle(user)}
                          >
                            {user.disabled ? 'Enable' : 'Disable'}
                          </Button>
                        </>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {creating && organizations.data && (
        <CreateUserDialog
          organizations={organizations.data}
          onClose={() => setCreating(false)}
          onCreated={(email) => {
            setCreating(false);
            snackbar.show({ text: `${email} created`, color: 'success' });
          }}
        />
      )}
      {editing && (
        <EditUserDialog
          user={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            snackbar.show({ text: `${editing.name || editing.email} saved`, color: 'success' });
            setEditing(null);
          }}
        />
      )}
    </>
  );
}
