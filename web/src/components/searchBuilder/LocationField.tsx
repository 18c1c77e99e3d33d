import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import { geocodeAddress, geocodeAutocomplete, type GeocodeResult, type GeocodeSuggestion } from '../../api/geocode';
import { ApiError } from '../../api/transport';
import { type Debounced, leadingDebounce } from '../../lib/debounce';
import { crossesDateLine } from '../../lib/wkt';

export const GEOCODE_DEBOUNCE_MS = 250;

export const DATE_LINE_WARNING =
  'This area crosses the date line (180° longitude): posts on both sides of it are matched.';

/**
 * The location of a search: typed with suggestions (a lookup at the first key, then 250 ms after
 * typing pauses), then resolved to its bounds. Emptying it clears the bounds. Bounds that cross
 * the date line are allowed but warned about, as the spec asks.
 */
export function LocationField({
  value,
  onChange,
  onResolved,
  bounds = '',
  error,
  label = 'Location',
  placeholder = 'A city, region or country',
}: {
  label?: string;
  placeholder?: string;
  value: string;
  onChange: (address: string) => void;
  /** The resolved place, or null when the address was cleared or could not be found. */
  onResolved: (result: GeocodeResult | null, failure?: string) => void;
  /** The area the address resolved to (WKT), for the date-line warning. */
  bounds?: string;
  error?: string;
}) {
  const [options, setOptions] = useState<GeocodeSuggestion[]>([]);
  const [loading, setLoading] = useState(false);
  const resolved = useRef(value);
  const suggest = useRef<Debounced<[string]> | null>(null);

  useEffect(() => {
    let inFlight: AbortController | null = null;
    const debounced = leadingDebounce((text: string) => {
      inFlight?.abort();
      if (text.trim().length < 2) {
        setOptions([]);
        return;
      }
      const controller = new AbortController();
      inFlight = controller;
      setLoading(true);
      geocodeAutocomplete(text, controller.signal)
        .then(setOptions, (failure: unknown) => {
          if (!(failure instanceof ApiError && failure.canceled)) setOptions([]);
        })
        .finally(() => {
          if (inFlight === controller) setLoading(false);
        });
    }, GEOCODE_DEBOUNCE_MS);
    suggest.current = debounced;
    return () => {
      debounced.cancel();
      inFlight?.abort();
    };
  }, []);

  const resolve = (address: string) => {
    const trimmed = address.trim();
    if (trimmed === resolved.current.trim()) return;
    resolved.current = trimmed;
    if (trimmed === '') {
      onResolved(null);
      return;
    }
    geocodeAddress(trimmed).then(
      (result) => {
        if (resolved.current === trimmed) onResolved(result);
      },
      (failure: unknown) => {
        if (resolved.current === trimmed) onResolved(null, failure instanceof Error ? failure.message : undefined);
      },
    );
  };

  return (
    <Autocomplete
      freeSolo
      options={options}
      filterOptions={(all) => all}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.address)}
      inputValue={value}
      loading={loading}
      onInputChange={(_event, text, reason) => {
        if (reason === 'reset' && text === value) return;
        onChange(text);
        if (reason === 'input') suggest.current?.(text);
        if (reason === 'clear' || text === '') resolve('');
      }}
      onChange={(_event, chosen) => {
        const address = typeof chosen === 'string' ? chosen : (chosen?.address ?? '');
        onChange(address);
        resolve(address);
      }}
      onBlur={() => resolve(value)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={placeholder}
          error={Boolean(error)}
          helperText={error ?? (crossesDateLine(bounds) ? DATE_LINE_WARNING : undefined)}
          slotProps={{
            ...params.slotProps,
            formHelperText: error ? undefined : { sx: { color: 'warning.main' } },
            input: {
              ...params.slotProps.input,
              startAdornment: (
                <InputAdornment position="start">
                  <PlaceOutlined fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    />
  );
}
