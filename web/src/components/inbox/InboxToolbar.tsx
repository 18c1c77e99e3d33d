import Autocomplete from '@mui/material/Autocomplete';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { InboxFilter, MatchQuery, MatchSort, MonitorSearchSummary, SearchInField } from '../../api/monitor';
import { useProvidersQuery } from '../../hooks/useMonitorQueries';
import { INBOX_FILTERS, SEARCH_IN_FIELDS, SORT_OPTIONS } from '../../lib/inboxQuery';

/** The inbox's filters, text fields, sort and, outside a search page, the saved searches shown. */
export function InboxToolbar({
  query,
  onChange,
  searches,
}: {
  query: MatchQuery;
  onChange: (change: Partial<MatchQuery>) => void;
  /** The saved searches to choose from; absent on a search page, which shows one. */
  searches?: MonitorSearchSummary[];
}) {
  const chosenSearches = (searches ?? []).filter((s) => query.monitorSearchIds.includes(s.id));
  const providers = useProvidersQuery();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
      <ToggleButtonGroup
        size="small"
        aria-label="Show only"
        value={query.filters}
        onChange={(_event, filters: InboxFilter[]) => onChange({ filters })}
      >
        {INBOX_FILTERS.map((filter) => (
          <ToggleButton key={filter.id} value={filter.id} sx={{ px: 1.5 }}>
            {filter.label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {query.providers.map((name) => (
        <Chip
          key={name}
          label={`Data source: ${providers.data?.find((p) => p.name === name)?.displayName ?? name}`}
          onDelete={() => onChange({ providers: query.providers.filter((p) => p !== name) })}
        />
      ))}
      {searches && (
        <Autocomplete
          multiple
          size="small"
          limitTags={2}
          options={searches}
          value={chosenSearches}
          onChange={(_event, chosen) => onChange({ monitorSearchIds: chosen.map((s) => s.id) })}
          getOptionLabel={(s) => s.value}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          renderInput={(params) => (
            <TextField {...params} label="Saved searches" placeholder={chosenSearches.length ? '' : 'All'} />
          )}
          sx={{ minWidth: 240, flex: '1 1 240px', maxWidth: 420 }}
        />
      )}
      <TextField
        select
        size="small"
        label="Search text in"
        value={query.searchIn}
        onChange={(event) => {
          const value = event.target.value as unknown as SearchInField[];
          if (value.length > 0) onChange({ searchIn: value });
        }}
        slotProps={{
          select: {
            multiple: true,
            renderValue: (value) =>
              (value as SearchInField[]).length === SEARCH_IN_FIELDS.length
                ? 'All fields'
                : `${(value as SearchInField[]).length} fields`,
          },
        }}
        sx={{ minWidth: 150 }}
      >
        {SEARCH_IN_FIELDS.map((field) => (
          <MenuItem key={field.id} value={field.id}>
            <Checkbox size="small" checked={query.searchIn.includes(field.id)} sx={{ p: 0.5, mr: 1 }} />
            <ListItemText primary={field.label} />
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Sort by"
        value={query.sort}
        onChange={(event) => onChange({ sort: event.target.value as MatchSort })}
        sx={{ minWidth: 210 }}
      >
        {SORT_OPTIONS.map((option) => (
          <MenuItem key={option.id} value={option.id}>
            {option.label}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
