import CloseOutlined from '@mui/icons-material/CloseOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { NotificationDestination } from '../../api/monitor';
import type { AlertChannel } from '../../api/notifications';

type TestResult = { state: 'sending' } | { state: 'sent' } | { state: 'failed'; message: string };

/**
 * Where one alert goes: its addresses (removable), a field to add one, and with onSendTest a
 * "Send test" per address with its outcome. Errors of an add or a removal show under the field.
 */
export function Destinations({
  channel,
  label,
  destinations,
  input,
  error,
  disabled,
  addDisabled = false,
  onInput,
  onAdd,
  onRemove,
  onSendTest,
}: {
  /** The channel the destinations go through: its field's label, input type and placeholder. */
  channel: AlertChannel;
  label: string;
  destinations: NotificationDestination[];
  input: string;
  error: string | undefined;
  disabled: boolean;
  /** No address can be added (the server could not send to it); those there can still go. */
  addDisabled?: boolean;
  onInput: (text: string) => void;
  onAdd: () => void;
  onRemove: (address: string) => void;
  onSendTest?: (destination: NotificationDestination) => Promise<void>;
}) {
  const [results, setResults] = useState<Record<string, TestResult>>({});
  const fieldLabel = channel.addLabel;

  const sendTest = (destination: NotificationDestination) => {
    if (!onSendTest) return;
    const key = destination.address;
    setResults((all) => ({ ...all, [key]: { state: 'sending' } }));
    onSendTest(destination).then(
      () => setResults((all) => ({ ...all, [key]: { state: 'sent' } })),
      (failure: Error) => setResults((all) => ({ ...all, [key]: { state: 'failed', message: failure.message } })),
    );
  };

  return (
    <Stack spacing={1.5} sx={{ pl: { sm: 2 } }}>
      {destinations.length > 0 && (
        <Stack
          component="ul"
          spacing={1}
          aria-label={`Destinations of ${label}`}
          sx={{ listStyle: 'none', m: 0, p: 0 }}
        >
          {destinations.map((destination) => {
            const result = results[destination.address];
            return (
              <Stack
                component="li"
                key={destination.address}
                direction="row"
                spacing={1}
                sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
              >
                <Chip label={destination.address} sx={{ maxWidth: 420 }} />
                <IconButton
                  size="small"
                  aria-label={`Remove ${destination.address}`}
                  onClick={() => onRemove(destination.address)}
                  disabled={disabled}
                >
                  <CloseOutlined fontSize="small" />
                </IconButton>
                {onSendTest && (
                  <Button
                    size="small"
                    aria-label={`Send test to ${destination.address}`}
                    onClick={() => sendTest(destination)}
                    disabled={disabled || result?.state === 'sending'}
                  >
                    Send test
                  </Button>
                )}
                <Typography
                  variant="body2"
                  role="status"
                  color={result?.state === 'failed' ? 'error' : 'text.secondary'}
                >
                  {result?.state === 'sending' && 'Sending…'}
                  {result?.state === 'sent' && 'Test delivered.'}
                  {result?.state === 'failed' && result.message}
                </Typography>
              </Stack>
            );
          })}
        </Stack>
      )}
      <Stack
        component="form"
        direction="row"
        spacing={1}
        sx={{ alignItems: 'flex-start' }}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onAdd();
        }}
      >
        <TextField
          size="small"
          label={fieldLabel}
          type={channel.inputType}
          placeholder={channel.placeholder}
          value={input}
          onChange={(event) => onInput(event.target.value)}
          error={error !== undefined}
          helperText={error}
          disabled={disabled || addDisabled}
          sx={{ flex: 1, maxWidth: 420 }}
          slotProps={{ htmlInput: { 'aria-label': `${fieldLabel} to ${label}` } }}
        />
        <Button
          type="submit"
          variant="outlined"
          aria-label={`Add to ${label}`}
          disabled={disabled || addDisabled || input.trim() === ''}
        >
          Add
        </Button>
      </Stack>
    </Stack>
  );
}
