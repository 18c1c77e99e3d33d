import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { fieldError } from '../../api/fieldError';
import type { Contact } from '../../api/settings';
import { ApiError } from '../../api/transport';
import { useContactMutation, useProfile } from '../../hooks/useProfileQuery';
import { useSnackbar } from '../../hooks/useSnackbar';

/** The user's name and username, as the organization sees them. */
export function ContactForm() {
  const profile = useProfile();
  const [form, setForm] = useState<Contact>({ name: profile.name, username: profile.username });
  const snackbar = useSnackbar();
  const save = useContactMutation();
  const unchanged = form.name === profile.name && form.username === profile.username;
  const field = (name: keyof Contact, label: string, autoComplete: string, help: string, maxLength: number) => (
    <TextField
      label={label}
      autoComplete={autoComplete}
      value={form[name]}
      onChange={(e) => setForm((f) => ({ ...f, [name]: e.target.value }))}
      error={Boolean(fieldError(save.error, name))}
      helperText={fieldError(save.error, name) ?? help}
      slotProps={{ htmlInput: { maxLength } }}
    />
  );
  return (
    <Stack
      component="form"
      aria-label="Contact details"
      spacing={2}
      sx={{ maxWidth: 420, mt: 3 }}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(form, {
          onSuccess: (p) => {
            setForm({ name: p.name, username: p.username });
            snackbar.show({ text: 'Contact details saved', color: 'success' });
          },
          onError: (error) => {
            if (!(error instanceof ApiError && error.body?.errors))
              snackbar.show({ text: error.message, color: 'error' });
          },
        });
      }}
    >
      {field('name', 'Name', 'name', 'How your team sees you.', 100)}
      {field('username', 'Username', 'nickname', 'Letters, numbers, dots, dashes and underscores.', 50)}
      <div>
        <Button type="submit" variant="contained" disabled={save.isPending || unchanged}>
          Save contact details
        </Button>
      </div>
    </Stack>
  );
}
