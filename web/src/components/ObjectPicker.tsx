import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useObjectTypeaheadQuery } from '../hooks/useFilterListQueries';
import { useSettledValue } from '../hooks/useSettledValue';

/** Objects from the supported vocabulary, suggested as the user types (most used first). */
export function ObjectPicker({
  value,
  onChange,
  disabled,
  label = 'Add objects',
  error,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  disabled?: boolean;
  label?: string;
  /** A message that replaces the helper text. */
  error?: string;
}) {
  const [input, setInput] = useState('');
  const q = useSettledValue(input.trim(), 200);
  const suggestions = useObjectTypeaheadQuery(q);
  // Suggestions for an older text would mislead while the typing settles.
  const current = q !== '' && q === input.trim();
  return (
    <Autocomplete
      multiple
      fullWidth
      size="small"
      value={value}
      onChange={(_, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_, next) => setInput(next)}
      options={current ? (suggestions.data ?? []).map((o) => o.keyword) : []}
      filterSelectedOptions
      filterOptions={(options) => options}
      loading={input.trim() !== '' && (!current || suggestions.isFetching)}
      disabled={disabled}
      noOptionsText={current ? 'No supported object matches' : 'Type to find objects'}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          error={Boolean(error)}
          helperText={error || 'Pick objects from the supported list.'}
        />
      )}
    />
  );
}
