import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type FormEvent, useId, useState } from 'react';
import type { CreatedTenantToken, TenantUser } from '../../api/tenant';
import { useSnackbar } from '../../hooks/useSnackbar';
import { useCreateTenantToken } from '../../hooks/useTenantQueries';
import { endOfDay, tokenScopes } from '../../lib/tenantLabels';
import { fieldError, formError } from '../../api/fieldError';

const FIELDS = ['name', 'userId', 'scopes', 'expiresAt'];

/**
 * Makes an API token for the admin or one of the tenant's users who is no tenant admin, then shows
 * its secret once, with a copy button: the server never returns it again. A token for someone else
 * is limited to a scope and must expire (at most a year away); its user sees it in their Settings.
 */
export function CreateTokenDialog({
  users,
  me,
  onClose,
}: {
  users: TenantUser[];
  /** The signed-in tenant admin's user id. */
  me: number;
  onClose: () => void;
}) {
  const titleId = useId();
  const create = useCreateTenantToken();
  const snackbar = useSnackbar();
  const [name, setName] = useState('');
  const [userId, setUserId] = useState<number | ''>('');
  const [scope, setScope] = useState('user');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<CreatedTenantToken | null>(null);
  const choosable = users.filter((u) => !u.disabled && (!u.is_tenant_admin || u.id === me));
  const forSomeoneElse = userId !== '' && userId !== me;
  const chooseUser = (id: number) => {
    setUserId(id);
    if (id !== me && scope === 'user') setScope('ingest');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, userId: userId || 0, scopes: scope === 'user' ? [] : [scope], expiresAt: endOfDay(expires) },
      { onSuccess: setCreated },
    );
  };
  const copy = () =>
    navigator.clipboard.writeText(created?.token ?? '').then(
      () => snackbar.show({ text: 'Token copied', color: 'success' }),
      () => snackbar.show({ text: 'The token could not be copied; select it and copy it by hand.', color: 'error' }),
    );
  const error = (field: string) => fieldError(create.error, field);
  const general = formError(create.error, FIELDS);
  const paper = { paper: { sx: { width: 560, maxWidth: 'calc(100% - 32px)' } } };

  if (created) {
    return (
      <Dialog open onClose={onClose} aria-labelledby={titleId} slotProps={paper}>
        <DialogTitle id={titleId}>Token {created.name} created</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            Copy the token now: Sightline shows it only this once. Send it as “Authorization: Bearer …”.
          </Alert>
          <TextField
            label="API token"
            value={created.token}
            fullWidth
            slotProps={{
              input: {
                readOnly: true,
                sx: { fontFamily: 'monospace' },
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton aria-label="Copy the token" onClick={() => void copy()} edge="end">
                      <ContentCopyOutlined />
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant="contained" onClick={onClose}>
            Done
          </Button>
        </DialogActions>
      </Dialog>
    );
  }
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} slotProps={paper}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>Create an API token</DialogTitle>
        <DialogContent>
          {general && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {general}
            </Alert>
          )}
          <TextField
            label="Name"
            required
            autoFocus
            fullWidth
            margin="dense"
            value={name}
            disabled={create.isPending}
            onChange={(event) => setName(event.target.value)}
            error={error('name') !== undefined}
            helperText={error('name') ?? 'What the token is for, such as the script that uses it.'}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          <TextField
            select
            label="User"
            required
            fullWidth
            margin="dense"
            value={userId}
            disabled={create.isPending}
            onChange={(event) => chooseUser(Number(event.target.value))}
            error={error('userId') !== undefined}
            helperText={
              error('userId') ?? 'The token acts as this user. Other tenant administrators make their own tokens.'
            }
          >
            {choosable.map((u) => (
              <MenuItem key={u.id} value={u.id}>
                {u.name ? `${u.name} (${u.email})` : u.email}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Scope"
            fullWidth
            margin="dense"
            value={scope}
            disabled={create.isPending}
            onChange={(event) => setScope(event.target.value)}
            error={error('scopes') !== undefined}
            helperText={error('scopes') ?? tokenScopes.find((s) => s.value === scope)?.help}
          >
            {tokenScopes.map((s) => (
              <MenuItem key={s.value} value={s.value} disabled={forSomeoneElse && s.value === 'user'}>
                {s.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Expires on"
            type="date"
            required={forSomeoneElse}
            fullWidth
            margin="dense"
            value={expires}
            disabled={create.isPending}
            onChange={(event) => setExpires(event.target.value)}
            error={error('expiresAt') !== undefined}
            helperText={
              error('expiresAt') ??
              (forSomeoneElse
                ? 'Required for a token made for someone else: at most a year away.'
                : 'Leave empty for a token that works until it is revoked.')
            }
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            Create token
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
