import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { LocationConfiguration } from '../../api/configurations';
import { useLocationConfigurationsQuery } from '../../hooks/useMonitorQueries';
import { canApplyProximityLocations, MAX_PROXIMITY_LOCATIONS } from '../../lib/alerts';

/**
 * The location configurations a proximity alert watches. The choice is a draft until Apply, so
 * an over-long selection can be trimmed before it reaches the search.
 */
export function ProximityLocations({
  chosen,
  onApply,
  disabled = false,
}: {
  chosen: string[];
  onApply: (fpids: string[]) => void;
  disabled?: boolean;
}) {
  const configurations = useLocationConfigurationsQuery();
  const [draft, setDraft] = useState<string[]>(chosen);
  const options = configurations.data ?? [];
  const byFpid = new Map(options.map((c) => [c.fpid, c]));
  // A chosen location that has since been deleted is not offered again.
  const selected = draft.map((fpid) => byFpid.get(fpid)).filter((c): c is LocationConfiguration => c !== undefined);
  const tooMany = selected.length > MAX_PROXIMITY_LOCATIONS;

  if (configurations.isPending) {
    return (
      <Typography variant="body2" color="text.secondary">
        Loading location configurations…
      </Typography>
    );
  }
  if (configurations.isError) {
    return <Alert severity="error">Location configurations could not be loaded. Please try again later.</Alert>;
  }
  return (
    <Stack spacing={1.5}>
      {options.length === 0 ? (
        <Alert severity="info">
          Proximity alerts need location assets first.{' '}
          <Link href="/monitor/configurations" target="_blank" rel="noopener">
            Add a location configuration (opens in a new tab)
          </Link>
          .
        </Alert>
      ) : (
        <Autocomplete
          multiple
          disableCloseOnSelect
          disabled={disabled}
          options={options}
          value={selected}
          onChange={(_event, value) => setDraft(value.map((c) => c.fpid))}
          getOptionLabel={(c) => c.name}
          getOptionKey={(c) => c.fpid}
          isOptionEqualToValue={(a, b) => a.fpid === b.fpid}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Proximity locations"
              helperText={`Up to ${MAX_PROXIMITY_LOCATIONS} locations; Apply saves the choice.`}
            />
          )}
        />
      )}
      {tooMany && (
        <Alert severity="warning">
          A proximity alert can watch at most {MAX_PROXIMITY_LOCATIONS} locations. Remove{' '}
          {selected.length - MAX_PROXIMITY_LOCATIONS} to apply.
        </Alert>
      )}
      <Stack direction="row" spacing={1}>
        <Button
          variant="outlined"
          disabled={disabled || !canApplyProximityLocations(selected.length, options.length)}
          onClick={() => onApply(selected.map((c) => c.fpid))}
        >
          Apply locations
        </Button>
        <Button disabled={disabled || options.length === 0} onClick={() => setDraft([])}>
          Clear all
        </Button>
      </Stack>
    </Stack>
  );
}
