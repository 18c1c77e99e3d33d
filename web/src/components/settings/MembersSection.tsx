import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Role } from '../../api/members';
import type { OrganizationMember, Profile } from '../../api/settings';
import { useConfirm } from '../../hooks/useConfirm';
import { useLoadFailureSnackbar } from '../../hooks/useLoadFailureSnackbar';
import { useInvitationsQuery, useMemberActions } from '../../hooks/useMembersQueries';
import { useOrganizationQuery } from '../../hooks/useOrganizationQuery';
import { useSnackbar } from '../../hooks/useSnackbar';
import { formatDateTime } from '../../lib/dateRange';
import { InviteDialog } from './InviteDialog';
import { ActionsHeaderCell } from '../table/ActionsHeaderCell';

const roleLabel: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/**
 * The organization's members; owners and admins also change roles, remove members and invite
 * colleagues by e-mail (only owners touch owners). The server has the last word on every rule.
 */
export function MembersSection({ profile }: { profile: Profile }) {
  const organization = useOrganizationQuery();
  const manager = profile.role === 'owner' || profile.role === 'admin';
  const organizationId = profile.organization.id;
  const invitations = useInvitationsQuery(organizationId, manager);
  const actions = useMemberActions(organizationId);
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const [inviting, setInviting] = useState(false);
  // One message for either: both are the organization's settings to the person reading.
  useLoadFailureSnackbar(
    organization.error ?? invitations.error,
    'Your organization’s settings could not be loaded. Please try again.',
  );

  const failed = (error: Error) => snackbar.show({ text: error.message, color: 'error' });
  const mayChange = (member: OrganizationMember) => manager && (profile.role === 'owner' || member.role !== 'owner');
  const name = (member: OrganizationMember) => member.name || member.username || member.email;

  const changeRole = (member: OrganizationMember, role: Role) => {
    if (role === member.role) return;
    actions.setRole.mutate(
      { userId: member.id, role },
      {
        onSuccess: () =>
          snackbar.show({ text: `${name(member)} is now ${roleLabel[role].toLowerCase()}`, color: 'success' }),
        onError: failed,
      },
    );
  };

  const remove = (member: OrganizationMember) =>
    confirm(
      member.id === profile.id
        ? {
            title: `Leave ${profile.organization.name}?`,
            text: 'You are signed out at once, everywhere, and your API tokens stop working. Only an invitation brings you back.',
            icon: 'warning',
            acceptLabel: 'Leave',
            onAccept: () => actions.remove.mutate(member.id, { onError: failed }),
          }
        : {
            title: `Remove ${name(member)}?`,
            text: 'They are signed out at once and their API tokens stop working. What they made stays with the organization.',
            icon: 'warning',
            acceptLabel: 'Remove',
            onAccept: () =>
              actions.remove.mutate(member.id, {
                onSuccess: () => snackbar.show({ text: `${name(member)} was removed`, color: 'success' }),
                onError: failed,
              }),
          },
    );

  // The spec's delete-invite modal: a withdrawn invitation's link stops working at once.
  const withdraw = (id: number, email: string) =>
    confirm({
      title: 'Delete the invitation?',
      text: `The invitation to ${email} stops working: its link no longer lets anyone join. You can invite them again later.`,
      icon: 'warning',
      acceptLabel: 'Delete invitation',
      onAccept: () =>
        actions.revoke.mutate(id, {
          onSuccess: () => snackbar.show({ text: `The invitation to ${email} was withdrawn`, color: 'success' }),
          onError: failed,
        }),
    });

  return (
    <Stack spacing={3}>
      {organization.isError && <Alert severity="error">{organization.error.message}</Alert>}
      {organization.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading members">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={36} />
          ))}
        </Stack>
      )}
      {organization.data && (
        <Table size="small" aria-label={`Members of ${organization.data.name}`}>
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>E-mail</TableCell>
              <TableCell>Role</TableCell>
              {manager && <ActionsHeaderCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {organization.data.users.map((member) => (
              <TableRow key={member.id}>
                <TableCell>
                  {name(member)}
                  {member.id === profile.id && <Chip size="small" label="You" sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell>{member.email}</TableCell>
                <TableCell>
                  {mayChange(member) ? (
                    <TextField
                      select
                      size="small"
                      variant="standard"
                      value={member.role}
                      disabled={actions.setRole.isPending}
                      onChange={(event) => changeRole(member, event.target.value as Role)}
                      slotProps={{ htmlInput: { 'aria-label': `Role of ${name(member)}` } }}
                    >
                      <MenuItem value="member">Member</MenuItem>
                      <MenuItem value="admin">Admin</MenuItem>
                      {profile.role === 'owner' && <MenuItem value="owner">Owner</MenuItem>}
                    </TextField>
                  ) : (
                    roleLabel[member.role]
                  )}
                </TableCell>
                {manager && (
                  <TableCell align="right">
                    {mayChange(member) && (
                      <Button
                        size="small"
                        color="error"
                        disabled={actions.remove.isPending}
                        aria-label={`Remove ${name(member)}`}
                        onClick={() => remove(member)}
                      >
                        Remove
                      </Button>
                    )}
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      {manager && (
        <Box component="section" aria-labelledby="invitations-heading">
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1.5, gap: 2, flexWrap: 'wrap' }}>
            <Typography variant="h4" component="h3" id="invitations-heading" sx={{ flex: 1 }}>
              Invitations
            </Typography>
            {profile.emailDelivery && (
              <Button variant="outlined" startIcon={<PersonAddAltOutlined />} onClick={() => setInviting(true)}>
                Invite a colleague
              </Button>
            )}
          </Stack>
          {!profile.emailDelivery && (
            <Alert severity="info" sx={{ mb: 2 }}>
              E-mail delivery is off on this server, so invitations cannot be sent. The operator turns it on with
              --smtp-url.
            </Alert>
          )}
          {invitations.isError && <Alert severity="error">{invitations.error.message}</Alert>}
          {invitations.isPending && (
            <Box role="status" aria-label="Loading invitations">
              <Skeleton variant="rounded" height={36} />
            </Box>
          )}
          {invitations.data?.length === 0 && (
            <Typography color="text.secondary">
              No open invitations.{profile.emailDelivery && ' Invite a colleague by e-mail to add them.'}
            </Typography>
          )}
          {invitations.data && invitations.data.length > 0 && (
            <Table size="small" aria-label="Open invitations">
              <TableHead>
                <TableRow>
                  <TableCell>E-mail</TableCell>
                  <TableCell>Role</TableCell>
                  <TableCell>Link</TableCell>
                  <ActionsHeaderCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {invitations.data.map((inv) => (
                  <TableRow key={inv.id}>
                    <TableCell>{inv.email}</TableCell>
                    <TableCell>{roleLabel[inv.role]}</TableCell>
                    <TableCell>
                      {inv.state === 'expired' ? (
                        <Chip size="small" color="warning" label="Expired" />
                      ) : (
                        `Works until ${formatDateTime(new Date(inv.expiresAt * 1000))}`
                      )}
                    </TableCell>
                    <TableCell align="right">
                      {(profile.role === 'owner' || inv.role !== 'owner') && (
                        <Button
                          size="small"
                          color="error"
                          disabled={actions.revoke.isPending}
                          aria-label={`Withdraw the invitation to ${inv.email}`}
                          onClick={() => withdraw(inv.id, inv.email)}
                        >
                          Withdraw
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <InviteDialog
            open={inviting}
            canGrantOwner={profile.role === 'owner'}
            pending={actions.invite.isPending}
            error={actions.invite.error}
            onClose={() => {
              setInviting(false);
              actions.invite.reset();
            }}
            onInvite={(email, role) =>
              actions.invite.mutate(
                { email, role },
                {
                  onSuccess: () => {
                    setInviting(false);
                    snackbar.show({ text: `Invitation sent to ${email}`, color: 'success' });
                  },
                },
              )
            }
          />
        </Box>
      )}
    </Stack>
  );
}
