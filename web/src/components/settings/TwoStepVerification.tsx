import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../../api/fieldError';
import { type MfaEnrolment } from '../../api/settings';
import { ApiError } from '../../api/transport';
import {
  useConfirmTwoStep,
  useDisableTwoStep,
  useProfile,
  useStartTwoStep,
  useTwoStepStateQuery,
} from '../../hooks/useProfileQuery';
import { useSnackbar } from '../../hooks/useSnackbar';

/** The message of a failed call about a code: the code field's, else the reply's (unless it is the password's). */
function codeError(error: Error | null): string | undefined {
  if (!error) return undefined;
  if (error instanceof ApiError && error.body?.errors?.current_password) return undefined;
  return fieldError(error, 'code') ?? error.message;
}

/** The current-password field's message of a failed call, if it is about the password. */
function passwordError(error: Error | null): string | undefined {
  return fieldError(error, 'current_password');
}

/** The secret in groups of four, easier to type into an app by hand. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Two-step verification in Settings: turn it on (the current password, then scan a QR code or
 * type the key and confirm with a code), save the recovery codes shown once, or turn it off with
 * the current password and a code. A session alone cannot change it.
 */
export function TwoStepVerification() {
  const profile = useProfile();
  const snackbar = useSnackbar();
  const [enrolment, setEnrolment] = useState<MfaEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [turningOn, setTurningOn] = useState(false);
  const [code, setCode] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');

  const state = useTwoStepStateQuery(profile.is_mfa_enabled && recoveryCodes === null);
  const start = useStartTwoStep();
  const confirm = useConfirmTwoStep((codes) => {
    setRecoveryCodes(codes);
    setEnrolment(null);
    setCode('');
  });
  const disable = useDisableTwoStep(() => {
    setTurningOff(false);
    setCode('');
    setCurrentPassword('');
    snackbar.show({ text: 'Two-step verification is off', color: 'success' });
  });

  const submit = (event: FormEvent, action: (code: string) => void) => {
    event.preventDefault();
    action(code.trim());
  };

  if (recoveryCodes) {
    const text = recoveryCodes.join('\n') + '\n';
    return (
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        <Alert severity="success">Two-step verification is on.</Alert>
        <Alert severity="warning">
          Save these recovery codes now: they are shown only this once. Each one signs you in once if you lose your
          authenticator app.
        </Alert>
        <Box
          component="ul"
          aria-label="Recovery codes"
          sx={{
            m: 0,
            p: 2,
            listStyle: 'none',
            display: 'grid',
            gridTemplateColumns: 'repeat(2, 1fr)',
            gap: 1,
            fontFamily: 'monospace',
            fontSize: '1rem',
            bgcolor: 'action.hover',
            borderRadius: 2,
          }}
        >
          {recoveryCodes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </Box>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          <Button
            startIcon={<ContentCopyOutlined />}
            onClick={() =>
              navigator.clipboard.writeText(text).then(
                () => snackbar.show({ text: 'Recovery codes copied', color: 'success' }),
                () =>
                  snackbar.show({ text: 'Your browser did not allow copying; download them instead.', color: 'error' }),
              )
            }
          >
            Copy codes
          </Button>
          <Button
            startIcon={<DownloadOutlined />}
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
            download="sightline-recovery-codes.txt"
          >
            Download
          </Button>
          <Box sx={{ flex: 1 }} />
          <Button variant="contained" onClick={() => setRecoveryCodes(null)}>
            I have saved them
          </Button>
        </Stack>
      </Stack>
    );
  }

  if (enrolment) {
    return (
      <Stack
        component="form"
        spacing={2}
        onSubmit={(e) => submit(e, (c) => confirm.mutate(c))}
        aria-label="Turn on two-step verification"
      >
        <Typography>
          Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or
          1Password), then enter the 6-digit code it shows.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
          <Box
            component="img"
            src={enrolment.qr_code}
            alt="QR code for your authenticator app. If you cannot scan it, type the setup key instead."
            sx={{
              width: 180,
              height: 180,
              bgcolor: 'common.white',
              p: 1,
              borderRadius: 2,
              border: 1,
              borderColor: 'divider',
            }}
          />
          <Stack spacing={2} sx={{ flex: 1, maxWidth: 360 }}>
            <TextField
              label="Setup key"
              value={grouped(enrolment.secret)}
              helperText="Cannot scan? Type this key into the app (time-based, 6 digits)."
              slotProps={{ htmlInput: { readOnly: true, style: { fontFamily: 'monospace' } } }}
            />
            <TextField
              label="6-digit code"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
              error={confirm.isError}
              helperText={codeError(confirm.error) ?? 'The code your app shows now.'}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
            />
          </Stack>
        </Stack>
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={confirm.isPending || code.length !== 6}>
            Turn on
          </Button>
          <Button onClick={() => setEnrolment(null)} disabled={confirm.isPending}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    );
  }

  if (profile.is_mfa_enabled) {
    const left = state.data?.recovery_codes_left;
    return (
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Chip color="success" label="On" size="small" />
          <Typography>Signing in asks for a code from your authenticator app.</Typography>
        </Stack>
        {left !== undefined && (
          <Typography variant="body2" color={left <= 2 ? 'warning.main' : 'text.secondary'}>
            {left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`}
            {left <= 2 && ' Turn two-step verification off and on again for new ones.'}
          </Typography>
        )}
        {turningOff ? (
          <Stack
            component="form"
            spacing={2}
            onSubmit={(e) => submit(e, (c) => disable.mutate({ password: currentPassword, code: c }))}
            aria-label="Turn off two-step verification"
          >
            <TextField
              label="Current password"
              type="password"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.target.value)}
              error={Boolean(passwordError(disable.error))}
              helperText={passwordError(disable.error)}
            />
            <TextField
              label="Code"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value.slice(0, 24))}
              error={disable.isError}
              helperText={codeError(disable.error) ?? 'A code from your authenticator app, or a recovery code.'}
            />
            <Stack direction="row" spacing={1}>
              <Button
                type="submit"
                variant="contained"
                color="error"
                disabled={disable.isPending || code.trim() === '' || currentPassword === ''}
              >
                Turn off
              </Button>
              <Button onClick={() => setTurningOff(false)} disabled={disable.isPending}>
                Cancel
              </Button>
            </Stack>
          </Stack>
        ) : (
          <div>
            <Button
              variant="outlined"
              color="error"
              onClick={() => {
                disable.reset();
                setCode('');
                setCurrentPassword('');
                setTurningOff(true);
              }}
            >
              Turn off
            </Button>
          </div>
        )}
      </Stack>
    );
  }

  return (
    <Stack spacing={2} sx={{ maxWidth: 520 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip label="Off" size="small" />
        <Typography>Signing in asks for your password only.</Typography>
      </Stack>
      {turningOn ? (
        <Stack
          component="form"
          spacing={2}
          onSubmit={(e) => {
            e.preventDefault();
            start.mutate(currentPassword, {
              onSuccess: (e) => {
                setEnrolment(e);
                setTurningOn(false);
                setCurrentPassword('');
                setCode('');
              },
              onError: (error) => {
                if (!passwordError(error)) snackbar.show({ text: error.message, color: 'error' });
              },
            });
          }}
          aria-label="Confirm your password"
        >
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
            error={Boolean(passwordError(start.error))}
            helperText={passwordError(start.error) ?? 'Your password confirms it is you turning this on.'}
          />
          <Stack direction="row" spacing={1}>
            <Button type="submit" variant="contained" disabled={start.isPending || currentPassword === ''}>
              Continue
            </Button>
            <Button onClick={() => setTurningOn(false)} disabled={start.isPending}>
              Cancel
            </Button>
          </Stack>
        </Stack>
      ) : (
        <div>
          <Button
            variant="contained"
            onClick={() => {
              confirm.reset();
              start.reset();
              setCurrentPassword('');
              setTurningOn(true);
            }}
          >
            Turn on
          </Button>
        </div>
      )}
    </Stack>
  );
}
