import FilterListOutlined from '@mui/icons-material/FilterListOutlined';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Popover from '@mui/material/Popover';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { FilterListSummary } from '../../api/filters';
import type { LocateMedia, LocatePriority, LocateSort } from '../../api/locate';
import type { Provider } from '../../api/monitor';
import {
  LOCATE_MEDIA,
  LOCATE_PRIORITIES,
  LOCATE_SORTS,
  filterListKind,
  type LocateRange,
  type LocateSearch,
  locateRanges,
  withMedia,
  withPriority,
  withSort,
} from '../../lib/locateSearch';
import { KINDS, providersOfRegion, REGIONS } from '../../lib/providerSelection';

export type LocateFilterValues = Pick<
  LocateSearch,
  'range' | 'media' | 'priority' | 'providers' | 'sort' | 'filterLists'
>;

/**
 * Search-side.md section 6: object-detection filters are disabled for quick search. A saved
 * search filters by the objects in its posts' images (an object filter list in the builder).
 */
export const OBJECTS_DISABLED =
  'Object-detection filters are disabled for quick search. Save the search to filter its posts by the objects in their images.';

const NO_FILTERS: LocateFilterValues = { range: 'all', providers: [] };

/** How many filters differ from none (and the order from most recent), for the button's badge. */
function activeFilters(f: LocateFilterValues): number {
  return (
    (f.range !== 'all' ? 1 : 0) +
    (f.media ? 1 : 0) +
    (f.priority ? 1 : 0) +
    (f.providers.length > 0 ? 1 : 0) +
    (f.sort ? 1 : 0) +
    (f.filterLists && f.filterLists.length > 0 ? 1 : 0)
  );
}

/**
 * The filters menu (search-side.md section 5): the date shortcut, the media, the organization's search filter lists
 * (keyword and author lists; object lists are disabled with the objects), the priority (by threat score), the data
 * sources by region or type, and the order of the results. Apply runs the search with them; Cancel, or closing the menu, drops the changes;
 * Clear all applies no filters.
 */
export function LocateFilters({
  value,
  providers,
  retentionDays,
  filterLists,
  onApply,
}: {
  value: LocateFilterValues;
  providers: Provider[];
  /** The organization's filter lists, or the error of loading them. */
  filterLists: { lists: FilterListSummary[]; failed: boolean };
  /** How many days of posts the server keeps: "all" reaches that far, and shorter shortcuts are offered. */
  retentionDays: number;
  onApply: (filters: LocateFilterValues) => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [draft, setDraft] = useState<LocateFilterValues>(value);
  const [grouping, setGrouping] = useState<'region' | 'kind'>('region');
  const enabled = providers.filter((p) => p.enabled);
  const groups =
    grouping === 'region'
      ? REGIONS.map((r) => ({ id: r.id, label: r.label, members: providersOfRegion(enabled, r.id) }))
      : KINDS.map((k) => ({
          id: k.id,
          label: k.label,
          members: enabled.filter((p) => p.kind === k.id).sort((a, b) => a.displayName.localeCompare(b.displayName)),
        }));
  const open = (element: HTMLElement) => {
    setDraft(value);
    setAnchor(element);
  };
  const close = () => setAnchor(null);
  const apply = (filters: LocateFilterValues) => {
    onApply(filters);
    close();
  };
  const usable = filterLists.lists.filter((l) => l.type === 'keyword' || l.type === 'author');
  const toggleList = (id: number, on: boolean) =>
    setDraft((d) => {
      const chosen = (d.filterLists ?? []).filter((l) => l !== id);
      const next: LocateFilterValues = { ...d, filterLists: on ? [...chosen, id] : chosen };
      if (next.filterLists?.length === 0) delete next.filterLists;
      return next;
    });
  const toggleProvider = (name: string, on: boolean) =>
    setDraft((d) => ({ ...d, providers: on ? [...d.providers, name] : d.providers.filter((p) => p !== name) }));

  return (
    <>
      <Badge badgeContent={activeFilters(value)} color="primary" overlap="rectangular">
        <Button variant="outlined" startIcon={<FilterListOutlined />} onClick={(event) => open(event.currentTarget)}>
          Filters
        </Button>
      </Badge>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { width: 420, maxWidth: '95vw', p: 2 } } }}
      >
        <Stack spacing={2} role="group" aria-label="Search filters">
          <FormControl>
            <FormLabel id="locate-range">Published</FormLabel>
            <RadioGroup
              row
              aria-labelledby="locate-range"
              value={draft.range}
              onChange={(event) => setDraft((d) => ({ ...d, range: event.target.value as LocateRange }))}
            >
              {locateRanges(retentionDays).map((r) => (
                <FormControlLabel key={r.id} value={r.id} control={<Radio size="small" />} label={r.label} />
              ))}
            </RadioGroup>
          </FormControl>
          <FormControl>
            <FormLabel id="locate-media">Media</FormLabel>
            <RadioGroup
              row
              aria-labelledby="locate-media"
              value={draft.media ?? 'any'}
              onChange={(event) => {
                const media = event.target.value;
                setDraft((d) => withMedia(d, media === 'any' ? undefined : (media as LocateMedia)));
              }}
            >
              <FormControlLabel value="any" control={<Radio size="small" />} label="Any" />
              {LOCATE_MEDIA.map((m) => (
                <FormControlLabel key={m.id} value={m.id} control={<Radio size="small" />} label={m.label} />
              ))}
            </RadioGroup>
          </FormControl>
          <FormControl>
            <FormLabel id="locate-objects">Objects in images</FormLabel>
            <Typography variant="body2" color="text.secondary">
              {OBJECTS_DISABLED}
            </Typography>
          </FormControl>
          <FormControl component="fieldset">
            <FormLabel component="legend" id="locate-filter-lists">
              Search filter lists
            </FormLabel>
            {filterLists.failed ? (
              <Alert severity="error">Error accessing Search Filter(s)</Alert>
            ) : usable.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                Your organization has no keyword or author filter lists.
              </Typography>
            ) : (
              <FormGroup sx={{ maxHeight: 160, overflowY: 'auto', flexWrap: 'nowrap' }}>
                {usable.map((l) => (
                  <FormControlLabel
                    key={l.id}
                    control={
                      <Checkbox
                        size="small"
                        checked={(draft.filterLists ?? []).includes(l.id)}
                        onChange={(event) => toggleList(l.id, event.target.checked)}
                      />
                    }
                    label={`${l.name} (${filterListKind(l)})`}
                  />
                ))}
              </FormGroup>
            )}
          </FormControl>
          <FormControl>
            <FormLabel id="locate-priority">Priority</FormLabel>
            <RadioGroup
              row
              aria-labelledby="locate-priority"
              value={draft.priority ?? 'any'}
              onChange={(event) => {
                const priority = event.target.value;
                setDraft((d) => withPriority(d, priority === 'any' ? undefined : (priority as LocatePriority)));
              }}
            >
              <FormControlLabel value="any" control={<Radio size="small" />} label="Any" />
              {LOCATE_PRIORITIES.map((p) => (
                <FormControlLabel key={p.id} value={p.id} control={<Radio size="small" />} label={p.label} />
              ))}
            </RadioGroup>
            <Typography variant="body2" color="text.secondary">
              By threat score: elevated from 25, high from 50 of 100.
            </Typography>
          </FormControl>
          <FormControl>
            <FormLabel id="locate-sort">Sort by</FormLabel>
            <RadioGroup
              row
              aria-labelledby="locate-sort"
              value={draft.sort ?? 'recent'}
              onChange={(event) => setDraft((d) => withSort(d, event.target.value as LocateSort))}
            >
              {LOCATE_SORTS.map((o) => (
                <FormControlLabel key={o.id} value={o.id} control={<Radio size="small" />} label={o.label} />
              ))}
            </RadioGroup>
          </FormControl>
          <Box>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
              <FormLabel component="div">Data sources</FormLabel>
              <ToggleButtonGroup
                exclusive
                size="small"
                value={grouping}
                onChange={(_event, next: 'region' | 'kind' | null) => next && setGrouping(next)}
                aria-label="Group data sources"
              >
                <ToggleButton value="region">By region</ToggleButton>
                <ToggleButton value="kind">By type</ToggleButton>
              </ToggleButtonGroup>
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {draft.providers.length === 0 ? 'All the data sources you have.' : `${draft.providers.length} chosen.`}
            </Typography>
            <Box sx={{ maxHeight: 220, overflowY: 'auto', mt: 0.5 }}>
              {groups
                .filter((g) => g.members.length > 0)
                .map((g) => (
                  <Box key={g.id} role="group" aria-label={g.label}>
                    <Typography variant="overline" color="text.secondary" component="div">
                      {g.label}
                    </Typography>
                    {g.members.map((p) => (
                      <FormControlLabel
                        key={p.name}
                        sx={{ width: '48%', mr: 0 }}
                        control={
                          <Checkbox
                            size="small"
                            checked={draft.providers.includes(p.name)}
                            onChange={(event) => toggleProvider(p.name, event.target.checked)}
                          />
                        }
                        label={p.displayName}
                      />
                    ))}
                  </Box>
                ))}
            </Box>
          </Box>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={() => apply(NO_FILTERS)}>Clear all</Button>
            <Button onClick={close}>Cancel</Button>
            <Button variant="contained" onClick={() => apply(draft)}>
              Apply
            </Button>
          </Stack>
        </Stack>
      </Popover>
    </>
  );
}
