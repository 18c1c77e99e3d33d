import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { fieldError } from '../../api/fieldError';
import { type PasswordChange } from '../../api/settings';
import { ApiError } from '../../api/transport';
import { useChangePassword } from '../../hooks/useProfileQuery';
import { useSnackbar } from '../../hooks/useSnackbar';

const EMPTY: PasswordChange = { current_password: '', password: '', password_confirmation: '' };

/** Changes the password: the current one, the new one twice; the server's rules decide. */
export function PasswordForm() {
  const [form, setForm] = useState<PasswordChange>(EMPTY);
  const snackbar = useSnackbar();
  const change = useChangePassword();
  const field = (name: keyof PasswordChange, label: string, autoComplete: string, help?: string) => (
    <TextField
      label={label}
      type="password"
      autoComplete={autoComplete}
      value={form[name]}
      onChange={(e) => setForm((f) => ({ ...f, [name]: e.target.value }))}
      error={Boolean(fieldError(change.error, name))}
      helperText={fieldError(change.error, name) ?? help}
    />
  );
  return (
    <Stack
      component="form"
      spacing={2}
      sx={{ maxWidth: 420 }}
      onSubmit={(e) => {
        e.preventDefault();
        change.mutate(form, {
          onSuccess: () => {
            setForm(EMPTY);
            snackbar.show({ text: 'Password changed. Your other sessions were signed out.', color: 'success' });
          },
          onError: (error) => {
            if (!(error instanceof ApiError && error.body?.errors))
              snackbar.show({ text: error.message, color: 'error' });
          },
        });
      }}
    >
      {field('current_password', 'Current password', 'current-password')}
      {field(
        'password',
        'New password',
        'new-password',
        'At least 12 characters, not your e-mail address, not a common password.',
      )}
      {field('password_confirmation', 'Repeat the new password', 'new-password')}
      <div>
        <Button
          type="submit"
          variant="contained"
          disabled={change.isPending || form.current_password === '' || form.password === ''}
        >
          Change password
        </Button>
      </div>
    </Stack>
  );
}
