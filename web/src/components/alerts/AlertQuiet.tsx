import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { SnoozeLength } from '../../api/notifications';
import { useAlertQuietQuery, useMuteStory, useSnoozeAlerts } from '../../hooks/useNotificationQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { formatDateTime } from '../../lib/dateRange';
import { LoadError } from '../LoadError';

const LENGTHS: { value: SnoozeLength; label: string }[] = [
  { value: '1h', label: '1 hour' },
  { value: '8h', label: '8 hours' },
  { value: '24h', label: '24 hours' },
  { value: '7d', label: '7 days' },
];

/**
 * A saved search's snooze and muted stories, where its alerts are shown: snoozing quiets every
 * alert of the search until a time; a muted story's matches are never sent. Both are the
 * search's, changed by whoever may edit its alerts, and listed in the delivery history.
 */
export function AlertQuiet({ searchId, canEdit }: { searchId: number; canEdit: boolean }) {
  const quiet = useAlertQuietQuery(searchId);
  const snooze = useSnoozeAlerts(searchId);
  const mute = useMuteStory(searchId);
  const snackbar = useSnackbar();
  const [length, setLength] = useState<SnoozeLength | 'until'>('1h');
  const [until, setUntil] = useState('');
  const headingId = useId();
  const failed = (error: Error) => snackbar.show({ text: error.message, color: 'error' });

  if (quiet.isError) return <LoadError onRetry={() => void quiet.refetch()}>{quiet.error.message}</LoadError>;
  if (!quiet.data) return null;
  const snoozedUntil = quiet.data.snoozedUntil;
  const apply = () => {
    const target = length === 'until' ? { until: Math.floor(new Date(until).getTime() / 1000) } : { for: length };
    snooze.mutate(target, { onError: failed });
  };

  return (
    <Stack spacing={1.5} component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h4" component="h3">
        Snooze and mute
      </Typography>
      {snoozedUntil !== null ? (
        <Alert
          severity="warning"
          action={
            canEdit && (
              <Button color="inherit" size="small" onClick={() => snooze.mutate(null, { onError: failed })}>
                Wake now
              </Button>
            )
          }
        >
          Alerts are snoozed until {formatDateTime(new Date(snoozedUntil * 1000))}. New matches are listed below as
          snoozed and not sent.
        </Alert>
      ) : (
        <Typography variant="body2" color="text.secondary">
          Alerts are on. Snooze them to stop every e-mail and webhook of this search for a while.
        </Typography>
      )}
      {canEdit && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            select
            size="small"
            label="Snooze for"
            value={length}
            onChange={(event) => setLength(event.target.value as SnoozeLength | 'until')}
            sx={{ minWidth: 160 }}
          >
            {LENGTHS.map((l) => (
              <MenuItem key={l.value} value={l.value}>
                {l.label}
              </MenuItem>
            ))}
            <MenuItem value="until">Until a date</MenuItem>
          </TextField>
          {length === 'until' && (
            <TextField
              size="small"
              type="datetime-local"
              label="Until"
              value={until}
              onChange={(event) => setUntil(event.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          )}
          <Button
            variant="outlined"
            onClick={apply}
            disabled={snooze.isPending || (length === 'until' && until === '')}
          >
            Snooze alerts
          </Button>
        </Stack>
      )}
      {quiet.data.mutedStories.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No story is muted. Mute one from its card in the inbox’s Stories view to stop its alerts here.
        </Typography>
      ) : (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }} aria-label="Muted stories" role="list">
          {quiet.data.mutedStories.map((m) => (
            <Chip
              role="listitem"
              key={m.storyId}
              label={`Muted story ${m.storyId}`}
              onDelete={
                canEdit ? () => mute.mutate({ storyId: m.storyId, mute: false }, { onError: failed }) : undefined
              }
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
