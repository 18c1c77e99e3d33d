import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { TenantOrganization } from '../../api/tenant';
import type { OrganizationSwitch } from '../../hooks/useTenantQueries';
import { featureFlags, organizationSettings } from '../../lib/tenantLabels';
import { LimitsDialog } from './LimitsDialog';

function Usage({ label, used, limit }: { label: string; used: number; limit?: number }) {
  const id = useId();
  const limited = limit !== undefined && limit > 0;
  return (
    <Box sx={{ minWidth: 150, flex: 1 }}>
      <Typography id={id} variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h4" component="p">
        {used.toLocaleString()}
        {limit !== undefined && (
          <Typography component="span" color="text.secondary" sx={{ fontSize: 14, ml: 0.75 }}>
            {limited ? `of ${limit.toLocaleString()}` : 'no limit'}
          </Typography>
        )}
      </Typography>
      {limited && (
        <LinearProgress
          variant="determinate"
          value={Math.min(100, (used / limit) * 100)}
          color={used >= limit ? 'error' : 'primary'}
          aria-labelledby={id}
          sx={{ mt: 0.75, borderRadius: 2 }}
        />
      )}
    </Box>
  );
}

/** One organization of the tenant: its usage against its limits (which can be changed), and its switches. */
export function OrganizationCard({
  organization: o,
  busy,
  onSwitch,
}: {
  organization: TenantOrganization;
  busy: boolean;
  onSwitch: (target: OrganizationSwitch, enabled: boolean) => void;
}) {
  const titleId = useId();
  const [editingLimits, setEditingLimits] = useState(false);
  const toggle = (key: string, label: string, help: string, checked: boolean, target: OrganizationSwitch) => (
    <FormControlLabel
      key={key}
      sx={{ alignItems: 'flex-start', m: 0, gap: 1 }}
      control={
        <Switch
          checked={checked}
          disabled={busy}
          onChange={(_event, value) => onSwitch(target, value)}
          slotProps={{ input: { 'aria-label': `${label} for ${o.name}` } }}
        />
      }
      label={
        <Box sx={{ pt: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {label}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {help}
          </Typography>
        </Box>
      }
    />
  );
  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ p: { xs: 2.5, md: 3 }, borderRadius: 3 }}
    >
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Typography id={titleId} variant="h3" component="h2">
          {o.name}
        </Typography>
        <Button
          size="small"
          startIcon={<TuneOutlined />}
          onClick={() => setEditingLimits(true)}
          aria-label={`Edit limits of ${o.name}`}
        >
          Edit limits
        </Button>
      </Stack>
      {editingLimits && <LimitsDialog organization={o} onClose={() => setEditingLimits(false)} />}
      <Stack direction="row" useFlexGap spacing={3} sx={{ flexWrap: 'wrap', mb: 3 }}>
        <Usage label="Members" used={o.usage.members} />
        <Usage label="Saved searches" used={o.usage.savedSearches} />
        <Usage label="Matches this month" used={o.usage.matchesThisMonth} limit={o.monthly_data_limit} />
        <Usage label="Assets" used={o.usage.assets} limit={o.asset_limit} />
      </Stack>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 3 }}>
        <div>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            Feature flags
          </Typography>
          <Stack spacing={1}>
            {featureFlags.map((f) =>
              toggle(f.name, f.label, f.help, o.feature_flags[f.name] === true, { kind: 'flag', name: f.name }),
            )}
          </Stack>
        </div>
        <div>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            Organization settings
          </Typography>
          <Stack spacing={1}>
            {organizationSettings.map((s) =>
              toggle(s.name, s.label, s.help, o[s.name], { kind: 'setting', name: s.name }),
            )}
          </Stack>
        </div>
      </Box>
    </Paper>
  );
}
