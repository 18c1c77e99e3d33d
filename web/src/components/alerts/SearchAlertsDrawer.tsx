import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { NotificationSetting } from '../../api/monitor';
import { ApiError } from '../../api/transport';
import { useLeaveGuard } from '../../hooks/useLeaveGuard';
import {
  useNotificationSettingsQuery,
  useSaveNotificationSettings,
  useSendTestNotification,
} from '../../hooks/useNotificationQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { settingsToSave } from '../../lib/alerts';
import { LeaveDialog } from '../LeaveDialog';
import { LoadError } from '../LoadError';
import { SideDrawer } from '../SideDrawer';
import { AlertQuiet } from './AlertQuiet';
import { AlertsPanel } from './AlertsPanel';
import { DeliveryHistory } from './DeliveryHistory';

export const SAVE_FAILED = 'Failed to save notification settings';

/**
 * The alerts of one saved search, opened from its page: its notification settings edited and
 * saved as a whole, and what they delivered. Closing or leaving with unsaved changes asks first.
 */
export function SearchAlertsDrawer({
  searchId,
  searchName,
  onClose,
}: {
  searchId: number;
  searchName: string;
  onClose: () => void;
}) {
  const settings = useNotificationSettingsQuery(searchId);
  const save = useSaveNotificationSettings(searchId);
  const sendTest = useSendTestNotification(searchId);
  const snackbar = useSnackbar();
  // Null while the settings are as stored, so a save or a reload shows what the server kept.
  const [draft, setDraft] = useState<NotificationSetting[] | null>(null);
  const [typing, setTyping] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [closeAsked, setCloseAsked] = useState(false);

  const stored = settings.data;
  const alerts = draft ?? stored?.settings ?? [];
  const body = stored ? settingsToSave(stored.settings, alerts) : [];
  const dirty =
    stored !== undefined && JSON.stringify(body) !== JSON.stringify(settingsToSave(stored.settings, stored.settings));
  const unsaved = stored?.canEdit === true && (dirty || typing);
  const blocker = useLeaveGuard(unsaved);

  const leave = () => (blocker.state === 'blocked' ? blocker.proceed() : onClose());
  const saveAll = (then?: () => void) =>
    save.mutate(body, {
      onSuccess: () => {
        setDraft(null);
        setProblem(null);
        snackbar.show({ text: 'Notification settings saved', color: 'success' });
        then?.();
      },
      onError: (error) => {
        // The server's 422 says which rule the settings broke.
        setProblem(error instanceof ApiError && error.status === 422 ? error.message : null);
        snackbar.show({ text: SAVE_FAILED, color: 'error' });
      },
    });
  const discard = () => {
    setDraft(null);
    setProblem(null);
  };

  return (
    <SideDrawer
      open
      onClose={() => (unsaved ? setCloseAsked(true) : onClose())}
      title={`Alerts of “${searchName}”`}
      closeLabel="Close alerts"
      width={880}
    >
      <Stack spacing={3} sx={{ p: 3, overflowY: 'auto' }}>
        {settings.isPending && (
          <Stack spacing={2} role="status" aria-label="Loading the alerts">
            <Skeleton variant="rounded" height={56} />
            <Skeleton variant="rounded" height={56} />
          </Stack>
        )}
        {settings.isError && <LoadError onRetry={() => void settings.refetch()}>{settings.error.message}</LoadError>}
        {stored && (
          <Stack spacing={2}>
            <Box sx={{ position: 'relative' }}>
              <AlertsPanel
                alerts={alerts}
                onChange={setDraft}
                types={stored.settings.map((s) => s.type)}
                disabled={!stored.canEdit}
                onSendTest={stored.canEdit ? (destination) => sendTest.mutateAsync(destination) : undefined}
                onInputPending={setTyping}
              />
              {!stored.canEdit && <InvalidPermissions />}
            </Box>
            {problem && <Alert severity="error">{problem}</Alert>}
            {stored.canEdit && (
              <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                <Button onClick={discard} disabled={!dirty || save.isPending}>
                  Discard changes
                </Button>
                <Button variant="contained" onClick={() => saveAll()} disabled={!dirty || save.isPending}>
                  {save.isPending ? 'Saving…' : 'Save alerts'}
                </Button>
              </Stack>
            )}
          </Stack>
        )}
        <Divider />
        {stored && <AlertQuiet searchId={searchId} canEdit={stored.canEdit} />}
        <Divider />
        <DeliveryHistory searchId={searchId} />
      </Stack>
      <LeaveDialog
        open={blocker.state === 'blocked' || closeAsked}
        title="Save the alerts before leaving?"
        text={
          dirty
            ? 'Your changes to these alerts are not saved yet.'
            : 'An address you typed has not been added to its alert yet.'
        }
        saving={save.isPending}
        canSave={dirty}
        onStay={() => {
          blocker.reset?.();
          setCloseAsked(false);
        }}
        onDiscard={leave}
        onSave={() => saveAll(leave)}
      />
    </SideDrawer>
  );
}

/** Covers the settings of a search the user may only view. */
function InvalidPermissions() {
  return (
    <Stack
      role="note"
      aria-label="Invalid Permissions"
      spacing={1}
      sx={(theme) => ({
        position: 'absolute',
        inset: 0,
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        borderRadius: 2,
        bgcolor: alpha(theme.palette.background.paper, 0.85),
      })}
    >
      <Typography variant="h4" component="p">
        Invalid Permissions
      </Typography>
      <Typography color="text.secondary">Only people who can edit this saved search can change its alerts.</Typography>
    </Stack>
  );
}
