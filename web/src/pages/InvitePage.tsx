import GroupAddOutlined from '@mui/icons-material/GroupAddOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { fieldError } from '../api/fieldError';
import { ApiError, type InvitationAcceptance } from '../api/transport';
import { SightlineMark } from '../components/SightlineMark';
import { useAppNavigate } from '../hooks/useAppNavigate';
import { useInvitationQuery } from '../hooks/useMembersQueries';
import { useAcceptInvitation } from '../hooks/useSessionQuery';
import { HOME_PATH } from '../lib/redirect';

const EMPTY: InvitationAcceptance = { name: '', password: '', password_confirmation: '' };

/**
 * /invite/{token}: the page an invitation e-mail links to. Without signing in, the invitee chooses
 * a name and password, joins the organization and is signed in. A used, withdrawn or expired link
 * says so.
 */
export function InvitePage() {
  const { token = '' } = useParams();
  const appNavigate = useAppNavigate();
  const [form, setForm] = useState<InvitationAcceptance>(EMPTY);
  const invitation = useInvitationQuery(token);
  const accept = useAcceptInvitation(token);
  const fieldErrors = accept.error instanceof ApiError ? (accept.error.body?.errors ?? {}) : {};
  // The message goes beside the form only when no field carries one.
  const otherError = accept.error && Object.keys(fieldErrors).length === 0 ? accept.error.message : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate({ ...form, name: form.name.trim() }, { onSuccess: () => appNavigate(HOME_PATH, { replace: true }) });
  };
  const field = (
    name: keyof InvitationAcceptance,
    label: string,
    type: string,
    autoComplete: string,
    help?: string,
  ) => (
    <TextField
      label={label}
      type={type}
      autoComplete={autoComplete}
      required
      fullWidth
      value={form[name]}
      onChange={(event) => setForm((f) => ({ ...f, [name]: event.target.value }))}
      error={Boolean(fieldError(accept.error, name))}
      helperText={fieldError(accept.error, name) ?? help}
    />
  );

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3, bgcolor: 'background.default' }}
    >
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 460, p: { xs: 3, sm: 5 }, borderRadius: 4 }}>
        <Stack spacing={1} sx={{ mb: 3 }}>
          <SightlineMark color="primary" sx={{ fontSize: 36 }} />
          <Typography variant="h2" component="h1">
            Join Sightline
          </Typography>
          {invitation.data && (
            <Typography color="text.secondary">
              You were invited to <strong>{invitation.data.organization}</strong> as{' '}
              {invitation.data.role === 'member' ? 'a' : 'an'} {invitation.data.role}. Choose your name and a password
              to join.
            </Typography>
          )}
        </Stack>
        {invitation.isPending && (
          <Stack spacing={2} role="status" aria-label="Opening the invitation">
            <Skeleton variant="rounded" height={48} />
            <Skeleton variant="rounded" height={48} />
          </Stack>
        )}
        {invitation.isError && (
          <Stack spacing={2}>
            <Alert severity="error">{invitation.error.message}</Alert>
            <Link href="/login">Go to sign in</Link>
          </Stack>
        )}
        {invitation.data && (
          <Box component="form" onSubmit={submit} noValidate aria-label="Join the organization">
            <Stack spacing={2.5}>
              {otherError && <Alert severity="error">{otherError}</Alert>}
              <TextField label="E-mail" value={invitation.data.email} fullWidth disabled autoComplete="username" />
              {field('name', 'Your name', 'text', 'name', 'How your colleagues see you.')}
              {field(
                'password',
                'Password',
                'password',
                'new-password',
                'At least 12 characters, not your e-mail address, not a common password.',
              )}
              {field('password_confirmation', 'Repeat the password', 'password', 'new-password')}
              <Button
                type="submit"
                variant="contained"
                size="large"
                disabled={accept.isPending}
                startIcon={
                  accept.isPending ? (
                    <CircularProgress size={18} color="inherit" aria-label="Joining" />
                  ) : (
                    <GroupAddOutlined />
                  )
                }
              >
                Join {invitation.data.organization}
              </Button>
            </Stack>
          </Box>
        )}
      </Paper>
    </Box>
  );
}
