import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import {
  DATE_SHORTCUTS,
  type DateRange,
  formatDateTime,
  fromLocalInput,
  shortcutRange,
  toLocalInput,
} from '../../lib/dateRange';

/** When the search runs: open-ended by default, a start and an end, or one of the shortcuts. */
export function DateRangeField({
  value,
  onChange,
  error,
}: {
  value: DateRange;
  onChange: (range: DateRange) => void;
  error?: string;
}) {
  const shortcutsId = useId();
  const { startDate, endDate } = value;
  const described =
    startDate || endDate
      ? `Runs ${startDate ? `from ${formatDateTime(startDate)}` : 'from now'} ${endDate ? `until ${formatDateTime(endDate)}` : 'with no end'}`
      : 'Runs from now, with no end';
  return (
    <Stack spacing={1}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          type="datetime-local"
          label="Start date"
          value={toLocalInput(startDate)}
          onChange={(event) => onChange({ startDate: fromLocalInput(event.target.value), endDate })}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth
          error={Boolean(error)}
        />
        <TextField
          type="datetime-local"
          label="End date"
          value={toLocalInput(endDate)}
          onChange={(event) => onChange({ startDate, endDate: fromLocalInput(event.target.value) })}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth
          error={Boolean(error)}
        />
      </Stack>
      <Stack
        direction="row"
        sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
        role="group"
        aria-labelledby={shortcutsId}
      >
        <Typography id={shortcutsId} variant="body2" color="text.secondary">
          Shortcuts:
        </Typography>
        {DATE_SHORTCUTS.map((shortcut) => (
          <Chip
            key={shortcut.id}
            label={shortcut.label}
            size="small"
            variant="outlined"
            onClick={() => onChange(shortcutRange(shortcut.id, new Date()))}
          />
        ))}
        {(startDate || endDate) && (
          <Chip label="No dates" size="small" onClick={() => onChange({ startDate: null, endDate: null })} />
        )}
      </Stack>
      <FormHelperText error={Boolean(error)} sx={{ m: 0 }}>
        {error ?? described}
      </FormHelperText>
    </Stack>
  );
}
