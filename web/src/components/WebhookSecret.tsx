import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useConfirm } from '../hooks/useConfirm';
import { useRotateWebhookSecret } from '../hooks/useOrganizationQuery';
import { useSnackbar } from '../hooks/useSnackbar';

/**
 * The organization's webhook signing secret: generated, or rotated after a confirmation, and
 * shown once right after, with a copy button. The server never returns it again.
 */
export function WebhookSecret({
  organizationId,
  has,
  loading,
}: {
  organizationId: number;
  has: boolean;
  loading: boolean;
}) {
  const rotate = useRotateWebhookSecret(organizationId);
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const [secret, setSecret] = useState<string | null>(null);

  const generate = () =>
    rotate.mutate(undefined, {
      onSuccess: (created) => setSecret(created),
      onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
    });
  const copy = () =>
    navigator.clipboard.writeText(secret ?? '').then(
      () => snackbar.show({ text: 'Secret copied', color: 'success' }),
      () => snackbar.show({ text: 'The secret could not be copied; select it and copy it by hand.', color: 'error' }),
    );

  if (loading)
    return (
      <Stack role="status" aria-label="Loading the secret's state">
        <Skeleton variant="rounded" height={40} />
      </Stack>
    );
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        Each call carries the headers webhook-id, webhook-timestamp and webhook-signature. The signature is “v1,”
        followed by the base64 HMAC-SHA256 of “id.timestamp.body”, keyed with the bytes the secret encodes after its
        whsec_ prefix; the Standard Webhooks libraries check it for you.
      </Typography>
      {secret ? (
        <>
          <Alert severity="warning">Copy the secret now: Sightline shows it only this once.</Alert>
          <TextField
            label="Webhook signing secret"
            value={secret}
            slotProps={{
              input: {
                readOnly: true,
                sx: { fontFamily: 'monospace' },
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton aria-label="Copy the secret" onClick={() => void copy()} edge="end">
                      <ContentCopyOutlined />
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
        </>
      ) : (
        <Typography>
          {has
            ? 'A secret is set. Rotating it replaces it at once: from then on calls are signed with the new secret only.'
            : 'No secret yet: webhook calls are signed once one is generated.'}
        </Typography>
      )}
      <Stack direction="row">
        {has ? (
          <Button
            variant="outlined"
            disabled={rotate.isPending}
            onClick={() =>
              confirm({
                title: 'Rotate the webhook signing secret?',
                text: 'The current secret stops working at once. Receivers that check signatures reject calls until they are given the new secret.',
                icon: 'warning',
                acceptLabel: 'Rotate',
                onAccept: generate,
              })
            }
          >
            Rotate secret
          </Button>
        ) : (
          <Button variant="contained" disabled={rotate.isPending} onClick={generate}>
            Generate secret
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
