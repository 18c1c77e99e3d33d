import FilterAltOutlined from '@mui/icons-material/FilterAltOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import PlaylistAddOutlined from '@mui/icons-material/PlaylistAddOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { entriesOf, type FilterKind, type FilterList } from '../../api/filters';
import { EmptyState } from '../../components/EmptyState';
import { CreateFilterDialog } from '../../components/filters/CreateFilterDialog';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { useFilterListDetailsQuery } from '../../hooks/useFilterListQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { countOf, kindLabels, levelLabels } from '../monitor/filterLabels';

/** The spec's message when the lists cannot be read (search-side.md section 9). */
export const FILTERS_LOAD_ERROR = 'Error accessing Search Filter(s)';

/** How many of a list's entries the details show before saying how many more there are. */
const SHOWN_ENTRIES = 60;

const kindFilters: { id: FilterKind | 'all'; label: string }[] = [
  { id: 'all', label: 'All' },
  ...(Object.keys(kindLabels) as FilterKind[]).map((id) => ({ id, label: kindLabels[id] })),
];

/**
 * Locate's search filters explorer (search-side.md section 3): the filter lists the user can
 * see, found by name or entry and narrowed by kind, with the chosen list's entries, owner, access
 * and the saved searches using it. At /locate/search-filters/new the quick-search create modal
 * is open over it; the list it creates is chosen once it closes.
 */
export function SearchFiltersPage({ creating = false }: { creating?: boolean }) {
  const lists = useFilterListDetailsQuery();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState('');
  const [kind, setKind] = useState<FilterKind | 'all'>('all');

  const found = useMemo(() => {
    const needle = text.trim().toLowerCase();
    return (lists.data ?? []).filter(
      (list) =>
        (kind === 'all' || list.kind === kind) &&
        (needle === '' ||
          list.name.toLowerCase().includes(needle) ||
          entriesOf(list).some((entry) => entry.value.toLowerCase().includes(needle))),
    );
  }, [lists.data, text, kind]);
  const chosenId = Number(params.get('list'));
  const chosen = found.find((list) => list.id === chosenId) ?? found[0];
  const choose = (id: number) => setParams({ list: String(id) }, { replace: true });

  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
      <PageHeader
        title="Search filters"
        subtitle="Keyword, author and object-detection lists that narrow what searches find and collect."
        actions={
          <Button
            component={RouterLink}
            to="/locate/search-filters/new"
            variant="contained"
            startIcon={<PlaylistAddOutlined />}
          >
            Create search filter
          </Button>
        }
      />
      {lists.isPending ? (
        <Stack spacing={1} role="status" aria-label="Loading the search filters">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={48} />
          ))}
        </Stack>
      ) : lists.isError ? (
        <LoadError onRetry={() => void lists.refetch()}>{FILTERS_LOAD_ERROR}</LoadError>
      ) : lists.data.length === 0 ? (
        <EmptyState
          icon={FilterAltOutlined}
          title="No search filters yet"
          actions={
            <Button component={RouterLink} to="/locate/search-filters/new" variant="contained">
              Create search filter
            </Button>
          }
        >
          A search filter is a list of keywords, authors or objects. Create one, or start from a prebuilt list in
          Monitor’s search filters.
        </EmptyState>
      ) : (
        <>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' } }}>
            <TextField
              size="small"
              label="Find a list"
              placeholder="A name or an entry"
              value={text}
              onChange={(event) => setText(event.target.value)}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchOutlined fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
              sx={{ minWidth: 260 }}
            />
            <ToggleButtonGroup
              exclusive
              size="small"
              color="primary"
              value={kind}
              onChange={(_event, next: FilterKind | 'all' | null) => next && setKind(next)}
              aria-label="Kind"
              sx={{ flexWrap: 'wrap' }}
            >
              {kindFilters.map((k) => (
                <ToggleButton key={k.id} value={k.id}>
                  {k.label}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Stack>
          {found.length === 0 || !chosen ? (
            <Typography color="text.secondary" role="status">
              No list matches. Clear the words or choose All.
            </Typography>
          ) : (
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '340px 1fr' } }}>
              <Paper variant="outlined" component="nav" aria-label="Filter lists">
                <List dense disablePadding>
                  {found.map((list) => (
                    <ListItem key={list.id} disablePadding>
                      <ListItemButton
                        selected={list.id === chosen.id}
                        aria-current={list.id === chosen.id ? 'true' : undefined}
                        onClick={() => choose(list.id)}
                      >
                        <ListItemText
                          primary={list.name}
                          secondary={`${kindLabels[list.kind]} · ${countOf(entriesOf(list).length, 'entry', 'entries')}`}
                        />
                      </ListItemButton>
                    </ListItem>
                  ))}
                </List>
              </Paper>
              <FilterDetails list={chosen} />
            </Box>
          )}
        </>
      )}
      {creating && (
        <CreateFilterDialog
          context="quick-search"
          onClose={() => void navigate('/locate/search-filters')}
          onCreated={({ data: created, message }) => {
            snackbar.show({
              color: 'success',
              text: message ? `Search filter created. ${message}` : 'Search filter created',
            });
            setText('');
            setKind('all');
            void navigate(`/locate/search-filters?list=${created.id}`);
          }}
        />
      )}
    </Box>
  );
}

/** One list: its kind, owner, the caller's access, its entries and the searches using it. */
function FilterDetails({ list }: { list: FilterList }) {
  const entries = entriesOf(list);
  const headingId = `filter-${list.id}-heading`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2.5, minWidth: 0 }}>
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
        <div>
          <Typography id={headingId} variant="h3" component="h2">
            {list.name}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
            <Chip size="small" label={kindLabels[list.kind]} />
            <Chip size="small" variant="outlined" label={`Your access: ${levelLabels[list.userPermissionLevel]}`} />
          </Stack>
        </div>
        <Button
          component={RouterLink}
          to={`/monitor/filters/${list.id}`}
          size="small"
          endIcon={<OpenInNewOutlined fontSize="small" />}
          sx={{ whiteSpace: 'nowrap' }}
        >
          {list.userPermissionLevel === 'view' ? 'Open' : 'Edit'}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
        Owned by {list.owner.email}
      </Typography>
      <Typography variant="h6" component="h3" sx={{ mt: 2.5, mb: 1 }}>
        {countOf(entries.length, 'entry', 'entries')}
      </Typography>
      <Box
        component="ul"
        aria-label="Entries"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, p: 0, m: 0, listStyle: 'none' }}
      >
        {entries.slice(0, SHOWN_ENTRIES).map((entry) => (
          <li key={entry.id}>
            <Chip size="small" variant="outlined" label={entry.value} />
          </li>
        ))}
      </Box>
      {entries.length > SHOWN_ENTRIES && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          And {countOf(entries.length - SHOWN_ENTRIES, 'more entry', 'more entries')}.
        </Typography>
      )}
      <Typography variant="h6" component="h3" sx={{ mt: 2.5, mb: 1 }}>
        Used by
      </Typography>
      {list.searches.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No saved search uses this list yet.
        </Typography>
      ) : (
        <Box component="ul" aria-label="Saved searches using this list" sx={{ m: 0, pl: 2.5 }}>
          {list.searches.map((search) => (
            <li key={search.id}>
              <Link component={RouterLink} to={`/monitor/${search.id}`}>
                {search.name}
              </Link>
            </li>
          ))}
        </Box>
      )}
    </Paper>
  );
}
