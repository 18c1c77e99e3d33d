import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { fieldError, formError } from '../api/fieldError';
import { SUPPORT_MESSAGE_MAX } from '../api/support';
import { useWriteSupport } from '../hooks/useSupportMutation';
import { SUPPORT_REPLY_PROMISE } from '../lib/support';

/**
 * The support e-mail form: the server mails the text to supportEmail, replies coming to the
 * user. Shown only when the server sends e-mail and the tenant has an address (the drawer says
 * otherwise up front).
 */
export function SupportForm({ supportEmail }: { supportEmail: string }) {
  const [message, setMessage] = useState('');
  const send = useWriteSupport();
  const tooLong = message.length > SUPPORT_MESSAGE_MAX;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (message.trim() === '' || tooLong) return;
    send.mutate(message.trim(), { onSuccess: () => setMessage('') });
  }

  const serverField = fieldError(send.error, 'message');
  const serverForm = formError(send.error, ['message']);
  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Write to support" sx={{ mt: 2 }}>
      {send.isSuccess && (
        <Alert severity="success" sx={{ mb: 2 }}>
          Your message was sent to {supportEmail}. {SUPPORT_REPLY_PROMISE}
        </Alert>
      )}
      {serverForm && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {serverForm}
        </Alert>
      )}
      <TextField
        label="Your message"
        multiline
        minRows={4}
        fullWidth
        value={message}
        onChange={(e) => {
          setMessage(e.target.value);
          if (send.isSuccess || send.isError) send.reset();
        }}
        error={tooLong || serverField !== undefined}
        helperText={
          tooLong
            ? `Keep it under ${SUPPORT_MESSAGE_MAX} characters.`
            : (serverField ?? 'Replies come to your own e-mail address.')
        }
      />
      <Button
        type="submit"
        variant="contained"
        sx={{ mt: 1 }}
        disabled={message.trim() === '' || tooLong || send.isPending}
      >
        {send.isPending ? 'Sending…' : 'Send to support'}
      </Button>
    </Box>
  );
}
