import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import type { AlertGrouping, NotificationDestination, NotificationSetting } from '../../api/monitor';
import { useAlertChannelsQuery } from '../../hooks/useNotificationQueries';
import { useOrganizationQuery } from '../../hooks/useOrganizationQuery';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSnackbar } from '../../hooks/useSnackbar';
import {
  addDestination,
  ALERT_KINDS,
  type AlertKind,
  alertOf,
  channelOf,
  type DestinationChange,
  GROUPINGS,
  intervalLabel,
  isImmediate,
  isOn,
  offersAlert,
  removeDestination,
  setAlertGrouping,
  setAlertInterval,
  setProximityInterval,
  setProximityLocations,
} from '../../lib/alerts';
import { Destinations } from './Destinations';
import { ProximityLocations } from './ProximityLocations';

const PROXIMITY_REFUSED = 'A proximity alert needs at least one location before it can be turned on.';
/** The server's refusal of a webhook before the organization can sign one (webhook.MsgNoSecret). */
export const WEBHOOK_NEEDS_SECRET =
  'The organization has no webhook signing secret yet: an owner or admin generates it in Settings.';

/**
 * A saved search's alerts, edited in the search builder and on the search page: e-mail alerts in
 * batches or digests, proximity alerts over location configurations, AI summaries and webhooks,
 * each with its destinations. Proximity and AI summaries show only where the organization has
 * them (or, given types, only the types listed). With onSendTest each destination can be tried.
 */
export function AlertsPanel({
  alerts,
  onChange,
  types,
  disabled = false,
  onSendTest,
  onInputPending,
}: {
  alerts: NotificationSetting[];
  onChange: (alerts: NotificationSetting[]) => void;
  types?: AlertKind[];
  disabled?: boolean;
  onSendTest?: (destination: NotificationDestination) => Promise<void>;
  /** Told whether an address is typed but not added yet, so leaving can warn. */
  onInputPending?: (pending: boolean) => void;
}) {
  const profile = useProfile();
  const snackbar = useSnackbar();
  const [inputs, setInputs] = useState<Partial<Record<AlertKind, string>>>({});
  const [errors, setErrors] = useState<Partial<Record<AlertKind, string>>>({});
  const channels = useAlertChannelsQuery().data;
  // Every webhook call is signed: without the organization's secret none can be added.
  const unsigned = useOrganizationQuery().data?.hasWebhookSecret === false;
  const kinds = ALERT_KINDS.filter((kind) => (types ? types.includes(kind.type) : offersAlert(profile, kind.type)));
  const pending = Object.values(inputs).some((text) => text.trim() !== '');

  useEffect(() => onInputPending?.(pending), [pending, onInputPending]);

  const apply = (type: AlertKind, change: DestinationChange, clearInput: boolean) => {
    setErrors((all) => ({ ...all, [type]: change.error }));
    if (change.error !== undefined) return;
    if (clearInput) setInputs((all) => ({ ...all, [type]: '' }));
    onChange(change.alerts);
  };
  if (!channels) return <CircularProgress aria-label="Loading alert channels" />;
  const changeInterval = (type: AlertKind, interval: number) => {
    setErrors((all) => ({ ...all, [type]: undefined }));
    if (type === 'webhook') return;
    if (type !== 'proximity') {
      onChange(setAlertInterval(alerts, type, interval, profile.email, channels));
      return;
    }
    const { alerts: next, refused } = setProximityInterval(alerts, interval, profile.email, channels);
    if (refused) snackbar.show({ text: PROXIMITY_REFUSED, color: 'error' });
    onChange(next);
  };

  return (
    <Stack spacing={3}>
      {channels
        .filter((channel) => !channel.available)
        .map((channel) => (
          <Alert key={channel.name} severity="info">
            {channel.unavailableMessage} {channel.label} alerts cannot be turned on.
          </Alert>
        ))}
      {kinds.map((kind) => {
        const current = alertOf(alerts, kind.type);
        const immediate = isImmediate(kind.type);
        const channel = channelOf(channels, kind.type);
        // A channel this server cannot send through can only be turned off.
        const canSwitchOn = channel?.available === true;
        const cannotAdd = kind.type === 'webhook' && unsigned;
        return (
          <Stack key={kind.type} spacing={1.5} role="group" aria-label={kind.label}>
            {immediate ? (
              <TextField
                label={kind.label}
                value={intervalLabel(current)}
                helperText={cannotAdd ? WEBHOOK_NEEDS_SECRET : 'Webhooks are called as soon as new matches arrive.'}
                slotProps={{ input: { readOnly: true } }}
                sx={{ maxWidth: 260 }}
                disabled={disabled}
              />
            ) : (
              <TextField
                select
                label={kind.label}
                value={current?.interval ?? 0}
                onChange={(event) => changeInterval(kind.type, Number(event.target.value))}
                sx={{ maxWidth: 260 }}
                disabled={disabled}
              >
                {kind.intervals.map((interval) => (
                  <MenuItem
                    key={interval.seconds}
                    value={interval.seconds}
                    disabled={interval.seconds > 0 && !canSwitchOn}
                  >
                    {interval.label}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {(immediate || isOn(current)) && (
              <TextField
                select
                label="Grouping"
                // A setting the server has not stored yet takes story grouping when saved.
                value={current?.grouping ?? 'story'}
                onChange={(event) => onChange(setAlertGrouping(alerts, kind.type, event.target.value as AlertGrouping))}
                helperText={
                  (current?.grouping ?? 'story') === 'story'
                    ? 'One alert when a story first matches, one more each time it escalates (3× the posts, 3 more sources, 2 more languages, high threat).'
                    : 'Each alert lists the new matches.'
                }
                sx={{ maxWidth: 520 }}
                disabled={disabled}
              >
                {GROUPINGS.map((g) => (
                  <MenuItem key={g.value} value={g.value}>
                    {g.label}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {channel && (immediate || isOn(current)) && (
              <Destinations
                channel={channel}
                label={kind.label}
                destinations={current?.destinations ?? []}
                input={inputs[kind.type] ?? ''}
                error={errors[kind.type]}
                disabled={disabled}
                addDisabled={cannotAdd}
                onInput={(text) => setInputs((all) => ({ ...all, [kind.type]: text }))}
                onAdd={() =>
                  apply(kind.type, addDestination(alerts, kind.type, inputs[kind.type] ?? '', channels), true)
                }
                onRemove={(address) => apply(kind.type, removeDestination(alerts, kind.type, address), false)}
                onSendTest={onSendTest}
              />
            )}
            {kind.type === 'proximity' && (
              <ProximityLocations
                // A saved or discarded choice replaces the one being drafted.
                key={(current?.locationAssetIds ?? []).join()}
                chosen={current?.locationAssetIds ?? []}
                disabled={disabled}
                onApply={(ids) => onChange(setProximityLocations(alerts, ids))}
              />
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}
