import AddOutlined from '@mui/icons-material/AddOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Group } from '../../api/monitor';
import { useFilterListsQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import type { SearchForm } from '../../lib/searchForm';

type FormUpdate = (update: (form: SearchForm) => SearchForm) => void;

export function AdvancedOptions({ form, update }: { form: SearchForm; update: FormUpdate }) {
  return (
    <Stack spacing={2}>
      <FormGroup row>
        <FormControlLabel
          control={
            <Switch
              checked={form.imagesOnly}
              onChange={(event) => update((f) => ({ ...f, imagesOnly: event.target.checked }))}
            />
          }
          label="Images only"
        />
        <FormControlLabel
          control={
            <Switch
              checked={form.videosOnly}
              onChange={(event) => update((f) => ({ ...f, videosOnly: event.target.checked }))}
            />
          }
          label="Videos only"
        />
      </FormGroup>
      <Autocomplete
        multiple
        freeSolo
        options={[]}
        value={form.boards}
        onChange={(_event, boards) =>
          update((f) => ({ ...f, boards: [...new Set(boards.map((b) => b.trim()).filter(Boolean))] }))
        }
        renderInput={(params) => (
          <TextField
            {...params}
            label="Boards"
            placeholder="Type a board, channel or subreddit and press Enter"
            helperText="Only posts from these boards match."
          />
        )}
      />
    </Stack>
  );
}

/**
 * The filter lists to attach (the user's own: only owners may attach), a way to create one, and
 * the shared-filter warning when the search's group is shared.
 */
export function SearchFiltersPanel({
  form,
  update,
  group,
  onCreate,
}: {
  form: SearchForm;
  update: FormUpdate;
  group: Group | undefined;
  onCreate: () => void;
}) {
  const profile = useProfile();
  const lists = useFilterListsQuery();
  const own = (lists.data ?? []).filter((list) => list.userPermissionLevel === 'owner');
  const groupShared = group !== undefined && (group.privacy !== 'private' || group.sharedUsers.length > 0);
  const warn =
    profile.organization.feature_flags.shared_filter_warning === true && form.searchFilterIds.length > 0 && groupShared;
  return (
    <Stack spacing={1.5}>
      {lists.isError && <Alert severity="error">Error accessing Search Filter(s)</Alert>}
      {lists.isSuccess && own.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          You have no filter lists yet.
        </Typography>
      )}
      <FormGroup aria-label="Filter lists">
        {own.map((list) => (
          <FormControlLabel
            key={list.id}
            control={
              <Checkbox
                checked={form.searchFilterIds.includes(list.id)}
                onChange={(event) =>
                  update((f) => ({
                    ...f,
                    searchFilterIds: event.target.checked
                      ? [...f.searchFilterIds, list.id]
                      : f.searchFilterIds.filter((id) => id !== list.id),
                  }))
                }
              />
            }
            label={
              <span>
                {list.name}{' '}
                <Typography component="span" variant="body2" color="text.secondary">
                  (
                  {list.type === 'keyword'
                    ? list.inclusion
                      ? 'keyword inclusion'
                      : 'keyword exclusion'
                    : list.type.replace('_', ' ')}
                  )
                </Typography>
              </span>
            }
          />
        ))}
      </FormGroup>
      {warn && (
        <Alert severity="warning">
          This search’s group is shared: everyone who can see the search sees which filters it uses.
        </Alert>
      )}
      <div>
        <Button startIcon={<AddOutlined />} onClick={onCreate}>
          Create a filter list
        </Button>
      </div>
    </Stack>
  );
}
