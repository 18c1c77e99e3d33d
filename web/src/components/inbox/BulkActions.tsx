import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import OutlinedFlagOutlined from '@mui/icons-material/OutlinedFlagOutlined';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { ActionScope, MatchAction } from '../../hooks/useMatchActions';
import { formatCount } from '../../lib/countFormat';

const actions: { label: string; action: MatchAction; icon: typeof FlagOutlined }[] = [
  { label: 'Flag', action: { flag: 'is-flagged', value: true }, icon: FlagOutlined },
  { label: 'Unflag', action: { flag: 'is-flagged', value: false }, icon: OutlinedFlagOutlined },
  { label: 'Mark read', action: { flag: 'is-read', value: true }, icon: MarkEmailReadOutlined },
  { label: 'Mark unread', action: { flag: 'is-read', value: false }, icon: MarkEmailUnreadOutlined },
  { label: 'Delete', action: { flag: 'is-deleted', value: true }, icon: DeleteOutlined },
];

/**
 * Selection and bulk actions: tick matches, then flag, mark or delete the chosen ones, every
 * loaded one, every one the filters select, or all of them.
 */
export function BulkActions({
  chosen,
  loaded,
  filteredTotal,
  filtered,
  allLoadedChosen,
  onChooseLoaded,
  onRun,
}: {
  chosen: number;
  loaded: number;
  /** How many matches the filters select, loaded or not. */
  filteredTotal: number;
  /** Whether any filter narrows the list, so "filtered" differs from "all". */
  filtered: boolean;
  allLoadedChosen: boolean;
  onChooseLoaded: (chosen: boolean) => void;
  onRun: (action: MatchAction, scope: ActionScope) => void;
}) {
  const [picked, setPicked] = useState<ActionScope>('chosen');
  // With nothing ticked, "chosen" means nothing; loaded matches are the natural default then.
  const scope: ActionScope = picked === 'chosen' && chosen === 0 ? 'loaded' : picked;
  const size: Record<ActionScope, string> = {
    chosen: formatCount(chosen),
    loaded: formatCount(loaded),
    filtered: formatCount(filteredTotal),
    all: 'every',
  };
  const scopes: { id: ActionScope; label: string }[] = [
    { id: 'chosen', label: `Chosen (${formatCount(chosen)})` },
    { id: 'loaded', label: `Loaded (${formatCount(loaded)})` },
    ...(filtered ? [{ id: 'filtered' as const, label: `Filtered (${formatCount(filteredTotal)})` }] : []),
    { id: 'all', label: 'All matches' },
  ];
  const nothing = (scope === 'loaded' && loaded === 0) || (scope === 'filtered' && filteredTotal === 0);
  return (
    <Stack
      direction="row"
      role="toolbar"
      aria-label="Bulk actions"
      sx={{ flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 1 }}
    >
      <Checkbox
        size="small"
        checked={allLoadedChosen && loaded > 0}
        indeterminate={!allLoadedChosen && chosen > 0}
        onChange={(event) => onChooseLoaded(event.target.checked)}
        slotProps={{ input: { 'aria-label': 'Choose every loaded match' } }}
      />
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: 80 }}>
        {chosen > 0 ? `${formatCount(chosen)} chosen` : 'None chosen'}
      </Typography>
      <TextField
        select
        size="small"
        label="Apply to"
        value={scope}
        onChange={(event) => setPicked(event.target.value as ActionScope)}
        sx={{ minWidth: 170 }}
      >
        {scopes.map((option) => (
          <MenuItem key={option.id} value={option.id} disabled={option.id === 'chosen' && chosen === 0}>
            {option.label}
          </MenuItem>
        ))}
      </TextField>
      {actions.map(({ label, action, icon: Icon }) => (
        <Button
          key={label}
          size="small"
          color={action.flag === 'is-deleted' ? 'error' : 'primary'}
          startIcon={<Icon fontSize="small" />}
          disabled={nothing}
          onClick={() => onRun(action, scope)}
          aria-label={`${label} ${scope === 'all' ? 'all matches' : `${size[scope]} ${scope} matches`}`}
        >
          {label}
        </Button>
      ))}
    </Stack>
  );
}
