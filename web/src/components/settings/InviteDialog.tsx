import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { fieldError, formError } from '../../api/fieldError';
import type { Role } from '../../api/members';

const ROLE_HELP: Record<Role, string> = {
  owner: 'Everything an admin can do, and make or remove owners.',
  admin: 'Invite and remove members and admins, see statistics, manage the webhook secret.',
  member: 'Search, monitor and share within the organization.',
};

/**
 * Asks for the colleague's e-mail address and role; the server mails them a one-time link.
 * Only owners are offered the owner role.
 */
export function InviteDialog({
  open,
  canGrantOwner,
  pending,
  error,
  onClose,
  onInvite,
}: {
  open: boolean;
  canGrantOwner: boolean;
  pending: boolean;
  error: Error | null;
  onClose: () => void;
  onInvite: (email: string, role: Role) => void;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [missing, setMissing] = useState(false);
  const emailError = missing ? 'Enter the e-mail address to invite.' : fieldError(error, 'email');
  const roleError = fieldError(error, 'role');
  const otherError = formError(error, ['email', 'role']);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === '') {
      setMissing(true);
      return;
    }
    setMissing(false);
    onInvite(email.trim(), role);
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="xs"
      slotProps={{ transition: { onExited: () => (setEmail(''), setRole('member'), setMissing(false)) } }}
    >
      <form onSubmit={submit} noValidate aria-label="Invite a colleague">
        <DialogTitle>Invite a colleague</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {otherError && <Alert severity="error">{otherError}</Alert>}
            <TextField
              label="E-mail address"
              type="email"
              autoComplete="off"
              autoFocus
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              error={Boolean(emailError)}
              helperText={
                emailError ??
                'They get a link that works once, for 7 days, and the products your subscription includes.'
              }
            />
            <TextField
              select
              label="Role"
              value={role}
              onChange={(event) => setRole(event.target.value as Role)}
              error={Boolean(roleError)}
              helperText={roleError ?? ROLE_HELP[role]}
            >
              <MenuItem value="member">Member</MenuItem>
              <MenuItem value="admin">Admin</MenuItem>
              {canGrantOwner && <MenuItem value="owner">Owner</MenuItem>}
            </TextField>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={pending}>
            Send invitation
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
