import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { NotificationSetting } from '../../api/monitor';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSnackbar } from '../../hooks/useSnackbar';
import {
  ALERT_KINDS,
  alertOf,
  offersAlert,
  setAlert,
  setProximityInterval,
  setProximityLocations,
} from '../../lib/alerts';
import type { SearchForm } from '../../lib/searchForm';
import { ProximityLocations } from './ProximityLocations';

type FormUpdate = (update: (form: SearchForm) => SearchForm) => void;

const WEBHOOK_ADDRESS = /^https?:\/\/[^\s/$.?#].[^\s]*$/i;

/**
 * E-mail alerts in batches or digests, proximity alerts over location configurations, AI
 * summaries and webhook deliveries; proximity and AI summaries only where the organization has them.
 */
export function AlertsPanel({ form, update }: { form: SearchForm; update: FormUpdate }) {
  const profile = useProfile();
  const snackbar = useSnackbar();
  const changeProximity = (interval: number) => {
    const { refused } = setProximityInterval(form.alerts, interval, profile.email);
    if (refused)
      snackbar.show({ text: 'Choose at least one location before turning proximity alerts on.', color: 'error' });
    update((f) => ({ ...f, alerts: setProximityInterval(f.alerts, interval, profile.email).alerts }));
  };
  return (
    <Stack spacing={2}>
      {ALERT_KINDS.filter((kind) => offersAlert(profile, kind.type)).map((kind) => {
        const current = alertOf(form.alerts, kind.type);
        if (kind.type === 'webhook') {
          const address = current?.destinations[0]?.address ?? '';
          const invalid = address !== '' && !WEBHOOK_ADDRESS.test(address);
          return (
            <TextField
              key={kind.type}
              label={kind.label}
              placeholder="https://hooks.example.com/sightline"
              value={address}
              onChange={(event) =>
                update((f) => ({ ...f, alerts: setAlert(f.alerts, 'webhook', 0, event.target.value) }))
              }
              error={invalid}
              helperText={invalid ? 'Enter an http or https address.' : address ? 'Immediate' : 'Off'}
            />
          );
        }
        const type = kind.type;
        const onInterval =
          type === 'proximity'
            ? changeProximity
            : (interval: number) =>
                update((f) => ({ ...f, alerts: setAlert(f.alerts, type, interval, profile.email) }));
        return (
          <Stack key={kind.type} spacing={1.5}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <TextField
                select
                label={kind.label}
                value={current?.interval ?? 0}
                onChange={(event) => onInterval(Number(event.target.value))}
                sx={{ minWidth: 220 }}
              >
                {kind.intervals.map((interval) => (
                  <MenuItem key={interval.seconds} value={interval.seconds}>
                    {interval.label}
                  </MenuItem>
                ))}
              </TextField>
              <Destinations setting={current} />
            </Stack>
            {kind.type === 'proximity' && (
              <ProximityLocations
                chosen={current?.locationAssetIds ?? []}
                onApply={(ids) =>
                  update((f) => ({ ...f, alerts: setProximityLocations(f.alerts, ids, profile.email) }))
                }
              />
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}

function Destinations({ setting }: { setting: NotificationSetting | undefined }) {
  if (!setting || setting.interval === 0) return null;
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }} aria-label="Destinations">
      {setting.destinations.map((d) => (
        <Chip key={d.address} size="small" label={d.address} />
      ))}
    </Stack>
  );
}
