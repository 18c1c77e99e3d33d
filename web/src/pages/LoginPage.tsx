import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, type LoginRequest } from '../api/transport';
import { SightlineMark } from '../components/SightlineMark';
import { useAppNavigate } from '../hooks/useAppNavigate';
import { useSignIn } from '../hooks/useSessionQuery';
import { safeRedirectPath } from '../lib/redirect';

interface Notice {
  severity: 'info' | 'error';
  text: string;
}

export function LoginPage() {
  const appNavigate = useAppNavigate();
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [mfaRequired, setMfaRequired] = useState(false);
  // A recovery code instead of the app's code: for when the phone is lost.
  const [recoveryMode, setRecoveryMode] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [missing, setMissing] = useState<{ email?: boolean; password?: boolean; otp?: boolean }>({});

  const signIn = useSignIn();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const nowMissing = {
      email: email.trim() === '',
      password: password === '',
      otp: mfaRequired && otp.trim() === '',
    };
    setMissing(nowMissing);
    if (nowMissing.email || nowMissing.password || nowMissing.otp) return;
    const request: LoginRequest = { email: email.trim(), password };
    if (mfaRequired) request.otp = otp.trim();
    setNotice(null);
    signIn.mutate(request, {
      onSuccess: () => appNavigate(safeRedirectPath(searchParams.get('redirect')), { replace: true }),
      onError: (error) => {
        if (error instanceof ApiError && error.body?.mfaRequired) {
          setMfaRequired(true);
          // The first ask for a code is a step, not a mistake.
          setNotice({ severity: request.otp ? 'error' : 'info', text: error.message });
          return;
        }
        setNotice({ severity: 'error', text: error.message });
      },
    });
  };

  const startOver = () => {
    setMfaRequired(false);
    setRecoveryMode(false);
    setOtp('');
    setPassword('');
    setNotice(null);
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', bgcolor: 'background.default' }}>
      <Box
        sx={{
          display: { xs: 'none', md: 'flex' },
          flex: '0 0 44%',
          flexDirection: 'column',
          justifyContent: 'space-between',
          p: 6,
          color: 'common.white',
          background: (theme) =>
            `radial-gradient(circle at 20% 20%, rgba(94, 129, 255, 0.35), transparent 55%), ${theme.palette.rail.background}`,
        }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <SightlineMark sx={{ fontSize: 34 }} />
          <Typography variant="h3" component="span" sx={{ fontWeight: 700 }}>
            Sightline
          </Typography>
        </Stack>
        <Box sx={{ maxWidth: 460 }}>
          <Typography variant="h1" component="p" sx={{ fontSize: '2.25rem', lineHeight: 1.2, mb: 2 }}>
            Search the open web. Keep watch on what matters.
          </Typography>
          <Typography sx={{ color: 'rgba(226, 232, 240, 0.78)' }}>
            Social, forum, news and dark-web posts in one place, with saved searches that run around the clock.
          </Typography>
        </Box>
        <Typography variant="body2" sx={{ color: 'rgba(226, 232, 240, 0.6)' }}>
          Open-source intelligence, searched and monitored.
        </Typography>
      </Box>

      <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', p: 3 }}>
        <Paper variant="outlined" sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 5 }, borderRadius: 4 }}>
          <Stack spacing={1} sx={{ mb: 4 }}>
            <SightlineMark color="primary" sx={{ fontSize: 36, display: { md: 'none' } }} />
            <Typography variant="h2" component="h1">
              Sign in
            </Typography>
            <Typography color="text.secondary">Welcome back. Sign in to continue to Sightline.</Typography>
          </Stack>
          <Box component="form" onSubmit={submit} noValidate aria-label="Sign in">
            <Stack spacing={2.5}>
              {notice && (
                <Alert severity={notice.severity} role={notice.severity === 'error' ? 'alert' : 'status'}>
                  {notice.text}
                </Alert>
              )}
              <TextField
                label="Email"
                type="email"
                autoComplete="username"
                required
                fullWidth
                autoFocus
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                disabled={mfaRequired}
                error={missing.email}
                helperText={missing.email ? 'Enter your e-mail address.' : undefined}
              />
              <TextField
                label="Password"
                type="password"
                autoComplete="current-password"
                required
                fullWidth
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                disabled={mfaRequired}
                error={missing.password}
                helperText={missing.password ? 'Enter your password.' : undefined}
              />
              {mfaRequired && !recoveryMode && (
                <TextField
                  key="otp"
                  label="Authentication code"
                  autoComplete="one-time-code"
                  required
                  fullWidth
                  autoFocus
                  value={otp}
                  onChange={(event) => setOtp(event.target.value.replace(/\D/g, '').slice(0, 6))}
                  error={missing.otp}
                  helperText={missing.otp ? 'Enter the 6-digit code.' : 'The 6-digit code from your authenticator app.'}
                  slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
                />
              )}
              {mfaRequired && recoveryMode && (
                <TextField
                  key="recovery"
                  label="Recovery code"
                  autoComplete="off"
                  required
                  fullWidth
                  autoFocus
                  value={otp}
                  onChange={(event) => setOtp(event.target.value.slice(0, 24))}
                  error={missing.otp}
                  helperText={missing.otp ? 'Enter a recovery code.' : 'One of the codes you saved; each works once.'}
                  slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
                />
              )}
              <Button
                type="submit"
                variant="contained"
                size="large"
                fullWidth
                disabled={signIn.isPending}
                startIcon={
                  signIn.isPending ? (
                    <CircularProgress size={18} color="inherit" aria-label="Signing in" />
                  ) : (
                    <LockOutlined />
                  )
                }
              >
                Sign in
              </Button>
              {mfaRequired && (
                <Stack spacing={1} sx={{ alignItems: 'center' }}>
                  <Link
                    component="button"
                    type="button"
                    onClick={() => {
                      setRecoveryMode((r) => !r);
                      setOtp('');
                      setMissing({});
                      setNotice(null);
                    }}
                  >
                    {recoveryMode ? 'Use the authenticator app' : 'Use a recovery code'}
                  </Link>
                  <Link component="button" type="button" onClick={startOver}>
                    Use a different account
                  </Link>
                </Stack>
              )}
            </Stack>
          </Box>
        </Paper>
      </Box>
    </Box>
  );
}
