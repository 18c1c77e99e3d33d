import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type FormEvent, useId, useState } from 'react';
import type { TenantUser } from '../../api/tenant';
import { useUpdateTenantUser } from '../../hooks/useTenantQueries';
import { AccessFields } from './AccessFields';
import { fieldError, formError } from '../../api/fieldError';

/** Changes a user's role in their organization and their subscription. */
export function EditUserDialog({
  user,
  onClose,
  onSaved,
}: {
  user: TenantUser;
  onClose: () => void;
  onSaved: () => void;
}) {
  const titleId = useId();
  const update = useUpdateTenantUser();
  const [role, setRole] = useState(user.role);
  const [acl, setACL] = useState(user.acl);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ id: user.id, role, acl }, { onSuccess: onSaved });
  };
  const general = formError(update.error, ['role']);
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { width: 560, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>Change {user.name || user.email}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>
            {user.email} · {user.organization.name}
          </DialogContentText>
          {general && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {general}
            </Alert>
          )}
          <AccessFields
            role={role}
            acl={acl}
            disabled={update.isPending}
            roleError={fieldError(update.error, 'role')}
            onRole={setRole}
            onACL={setACL}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={update.isPending}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
