import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type FormEvent, useId, useState } from 'react';
import type { NewTenantUser, Role, TenantACL, TenantOrganization } from '../../api/tenant';
import { useCreateTenantUser } from '../../hooks/useTenantQueries';
import { AccessFields } from './AccessFields';
import { fieldError, formError } from '../../api/fieldError';

const FIELDS = ['name', 'email', 'organizationId', 'role', 'password'];

/** Creates a user in one of the tenant's organizations, with a first password to hand over. */
export function CreateUserDialog({
  organizations,
  onClose,
  onCreated,
}: {
  organizations: TenantOrganization[];
  onClose: () => void;
  onCreated: (email: string) => void;
}) {
  const titleId = useId();
  const create = useCreateTenantUser();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [organizationId, setOrganizationId] = useState<number | ''>(
    organizations.length === 1 ? (organizations[0]?.id ?? '') : '',
  );
  const [role, setRole] = useState<Role>('member');
  const [acl, setACL] = useState<TenantACL>({ beacon: true, pro: true, enterprise: false, locate_api: false });
  const [password, setPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const user: NewTenantUser = { name, email, organizationId: organizationId || 0, role, acl, password };
    create.mutate(user, { onSuccess: (created) => onCreated(created.email) });
  };
  const error = (field: string) => fieldError(create.error, field);
  const general = formError(create.error, FIELDS);
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { width: 560, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>Create a user</DialogTitle>
        <DialogContent>
          {general && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {general}
            </Alert>
          )}
          <TextField
            label="Name"
            fullWidth
            margin="dense"
            autoFocus
            value={name}
            disabled={create.isPending}
            onChange={(event) => setName(event.target.value)}
            error={error('name') !== undefined}
            helperText={error('name')}
          />
          <TextField
            label="E-mail"
            type="email"
            required
            fullWidth
            margin="dense"
            value={email}
            disabled={create.isPending}
            onChange={(event) => setEmail(event.target.value)}
            error={error('email') !== undefined}
            helperText={error('email')}
          />
          <TextField
            select
            label="Organization"
            required
            fullWidth
            margin="dense"
            value={organizationId}
            disabled={create.isPending}
            onChange={(event) => setOrganizationId(Number(event.target.value))}
            error={error('organizationId') !== undefined || error('organization') !== undefined}
            helperText={error('organizationId') ?? error('organization')}
          >
            {organizations.map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {o.name}
              </MenuItem>
            ))}
          </TextField>
          <AccessFields
            role={role}
            acl={acl}
            disabled={create.isPending}
            roleError={error('role')}
            onRole={setRole}
            onACL={setACL}
          />
          <TextField
            label="First password"
            type="password"
            autoComplete="new-password"
            required
            fullWidth
            margin="dense"
            value={password}
            disabled={create.isPending}
            onChange={(event) => setPassword(event.target.value)}
            error={error('password') !== undefined}
            helperText={
              error('password') ??
              'At least 12 characters. Give it to the user yourself; they can change it in Settings.'
            }
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            Create user
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
