import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { fieldError, formError } from '../../api/fieldError';
import type { TenantOrganization } from '../../api/tenant';
import { useSetOrganizationLimits } from '../../hooks/useTenantQueries';
import { useSnackbar } from '../../hooks/useSnackbar';

const MAX_LIMIT = 1_000_000_000;
const MAX_ALERT_LIMIT = 10_000;

/** A limit as typed: a whole number from 0 up to max, or undefined when it is not one. */
function limitOf(text: string, max = MAX_LIMIT): number | undefined {
  const trimmed = text.trim().replaceAll(',', '');
  if (!/^\d+$/.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return n <= max ? n : undefined;
}

/** Sets an organization's monthly data limit and asset limit (0: no limit) and its alert flood guard (0: the default). */
export function LimitsDialog({ organization, onClose }: { organization: TenantOrganization; onClose: () => void }) {
  const titleId = useId();
  const [monthly, setMonthly] = useState(String(organization.monthly_data_limit));
  const [assets, setAssets] = useState(String(organization.asset_limit));
  const [alerts, setAlerts] = useState(String(organization.alert_daily_limit));
  const save = useSetOrganizationLimits();
  const snackbar = useSnackbar();
  const monthlyLimit = limitOf(monthly);
  const assetLimit = limitOf(assets);
  const alertLimit = limitOf(alerts, MAX_ALERT_LIMIT);
  const typed = 'Type a whole number from 0 (no limit) to 1,000,000,000.';
  const monthlyError = monthlyLimit === undefined ? typed : fieldError(save.error, 'monthly_data_limit');
  const assetError = assetLimit === undefined ? typed : fieldError(save.error, 'asset_limit');
  const alertError =
    alertLimit === undefined
      ? 'Type a whole number from 1 to 10,000, or 0 for the default (50).'
      : fieldError(save.error, 'alert_daily_limit');
  const otherError = formError(save.error, ['monthly_data_limit', 'asset_limit', 'alert_daily_limit']);
  const valid = monthlyLimit !== undefined && assetLimit !== undefined && alertLimit !== undefined;

  const submit = () => {
    if (monthlyLimit === undefined || assetLimit === undefined || alertLimit === undefined) return;
    save.mutate(
      {
        organizationId: organization.id,
        limits: { monthly_data_limit: monthlyLimit, asset_limit: assetLimit, alert_daily_limit: alertLimit },
      },
      {
        onSuccess: () => {
          snackbar.show({ color: 'success', text: `${organization.name}’s limits saved` });
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Limits of {organization.name}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <TextField
            label="Monthly data limit"
            value={monthly}
            onChange={(event) => setMonthly(event.target.value)}
            error={Boolean(monthlyError)}
            helperText={
              monthlyError ??
              `Matches a month; 0 for no limit. ${organization.usage.matchesThisMonth.toLocaleString()} so far this month.`
            }
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <TextField
            label="Asset limit"
            value={assets}
            onChange={(event) => setAssets(event.target.value)}
            error={Boolean(assetError)}
            helperText={
              assetError ??
              `Saved searches, location configurations and assets together; 0 for no limit. ${organization.usage.assets.toLocaleString()} held now.`
            }
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <TextField
            label="Alert limit"
            value={alerts}
            onChange={(event) => setAlerts(event.target.value)}
            error={Boolean(alertError)}
            helperText={
              alertError ??
              'Notifications each saved search sends in 24 hours; past it the rest wait for its digest. 0 for the default (50).'
            }
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <Alert severity="info">
            A limit below what the organization holds removes nothing: it stops what would go beyond it.
          </Alert>
          {otherError && <Alert severity="error">{otherError}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={save.isPending || !valid}
        >
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
