import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import type { Privacy } from '../api/monitor';
import { PRIVACY_OPTIONS } from '../lib/sharing';

/** Who in the organization may see a group: only you, everyone read-only, or everyone editing. */
export function PrivacySelector({
  value,
  onChange,
  disabled = false,
}: {
  value: Privacy;
  onChange: (privacy: Privacy) => void;
  disabled?: boolean;
}) {
  const labelId = useId();
  return (
    <FormControl disabled={disabled}>
      <FormLabel id={labelId}>Privacy</FormLabel>
      <RadioGroup aria-labelledby={labelId} value={value} onChange={(event) => onChange(event.target.value as Privacy)}>
        {PRIVACY_OPTIONS.map((option) => (
          <FormControlLabel
            key={option.value}
            value={option.value}
            control={<Radio size="small" />}
            label={
              <span>
                {option.label}
                <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                  {option.description}
                </Typography>
              </span>
            }
          />
        ))}
      </RadioGroup>
    </FormControl>
  );
}
