import AddLocationAltOutlined from '@mui/icons-material/AddLocationAltOutlined';
import LocationOnOutlined from '@mui/icons-material/LocationOnOutlined';
import MapOutlined from '@mui/icons-material/MapOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Fragment, useEffect, useState } from 'react';
import { CONFIGURATIONS_PER_PAGE, type LocationConfigurationDetail } from '../../api/configurations';
import { ConfigurationDialog } from '../../components/configurations/ConfigurationDialog';
import { ImportPlacesButton } from '../../components/configurations/ImportPlacesButton';
import { PlaceMap } from '../../components/configurations/PlaceMap';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { useConfigurationPageQuery, useDeleteConfiguration } from '../../hooks/useConfigurationQueries';
import { RelativeTime } from '../../components/RelativeTime';
import { formatDistance } from '../../lib/distance';
import { ActionsHeaderCell } from '../../components/table/ActionsHeaderCell';
import { EditDeleteButtons } from '../../components/table/EditDeleteButtons';
import { useConfirmDelete } from '../../hooks/useConfirmDelete';

// Typing in the search box asks the server once the user pauses.
const SEARCH_DEBOUNCE_MS = 300;

/** configurations: the organization's named places, ten a page, that proximity alerts watch. */
export function ConfigurationsPage() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(0);
  const [editor, setEditor] = useState<{ editing: LocationConfigurationDetail | null } | null>(null);
  const configurations = useConfigurationPageQuery(page, q);

  // Only a changed search goes back to the first page: the wait that starts with the page
  // (nothing typed yet) once sent a reader who had already turned to page 2 back to page 1.
  useEffect(() => {
    const next = text.trim();
    if (next === q) return;
    const timer = setTimeout(() => {
      setQ(next);
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, q]);

  const add = () => setEditor({ editing: null });
  const nothingAtAll = configurations.data?.total === 0 && q === '';

  return (
    <>
      <PageHeader
        title="Location configurations"
        subtitle="Named places, each an address or a point with a radius, that proximity alerts watch."
        actions={
          <Stack direction="row" spacing={1}>
            <ImportPlacesButton />
            <Button variant="contained" startIcon={<AddLocationAltOutlined />} onClick={add}>
              New location configuration
            </Button>
          </Stack>
        }
      />
      {configurations.isPending ? (
        <Stack spacing={1} role="status" aria-label="Loading location configurations">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={48} />
          ))}
        </Stack>
      ) : configurations.isError ? (
        <LoadError onRetry={() => void configurations.refetch()}>{configurations.error.message}</LoadError>
      ) : nothingAtAll ? (
        <EmptyState
          icon={LocationOnOutlined}
          title="No location configurations yet"
          actions={
            <Button variant="contained" startIcon={<AddLocationAltOutlined />} onClick={add}>
              Add the first place
            </Button>
          }
        >
          Add the places you care about, such as an office, a plant or an event venue, one by one or many at once from a
          CSV file. Proximity alerts then tell you when a match is posted near them.
        </EmptyState>
      ) : (
        <>
          <TextField
            size="small"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Search by name"
            slotProps={{
              htmlInput: { 'aria-label': 'Search location configurations' },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchOutlined fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
            sx={{ mb: 2, width: { xs: '100%', sm: 320 } }}
          />
          {configurations.data.items.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
              No location configuration’s name contains “{q}”.
            </Typography>
          ) : (
            <ConfigurationTable items={configurations.data.items} onEdit={(editing) => setEditor({ editing })} />
          )}
          <TablePagination
            component="div"
            count={configurations.data.total}
            page={configurations.data.page}
            onPageChange={(_event, next) => setPage(next)}
            rowsPerPage={CONFIGURATIONS_PER_PAGE}
            rowsPerPageOptions={[]}
          />
        </>
      )}
      <ConfigurationDialog open={editor !== null} editing={editor?.editing ?? null} onClose={() => setEditor(null)} />
    </>
  );
}

function ConfigurationTable({
  items,
  onEdit,
}: {
  items: LocationConfigurationDetail[];
  onEdit: (configuration: LocationConfigurationDetail) => void;
}) {
  const [shown, setShown] = useState<number | null>(null);
  const askToDelete = useConfirmDelete(
    useDeleteConfiguration(),
    'Proximity alerts that watch this place stop watching it. This cannot be undone.',
  );

  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
      <Table aria-label="Location configurations">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Address</TableCell>
            <TableCell>Radius</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Owner</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Updated</TableCell>
            <ActionsHeaderCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((c) => (
            <Fragment key={c.id}>
              <TableRow sx={{ '& > td': { borderBottom: shown === c.id ? 0 : undefined } }}>
                <TableCell sx={{ fontWeight: 600 }}>{c.name}</TableCell>
                <TableCell>{c.address}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDistance(c.radius_meters)}
                  {c.radius_is_default && (
                    <Typography component="span" variant="body2" color="text.secondary">
                      {' '}
                      (default)
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{c.owner.email}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                  <RelativeTime date={new Date(c.updated_at * 1000)} />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {c.address_bounds && (
                    <Tooltip title={shown === c.id ? 'Hide the map' : 'Show on a map'}>
                      <IconButton
                        aria-label={`Map of ${c.name}`}
                        aria-expanded={shown === c.id}
                        onClick={() => setShown(shown === c.id ? null : c.id)}
                      >
                        <MapOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  {c.canEdit && (
                    <EditDeleteButtons
                      name={c.name}
                      onEdit={() => onEdit(c)}
                      onDelete={() => askToDelete(c.id, c.name)}
                    />
                  )}
                </TableCell>
              </TableRow>
              {c.address_bounds && (
                <TableRow>
                  <TableCell colSpan={6} sx={{ py: 0, borderBottom: shown === c.id ? undefined : 0 }}>
                    <Collapse in={shown === c.id} unmountOnExit>
                      <Box sx={{ py: 2 }}>
                        <PlaceMap
                          feature={c.address_bounds}
                          label={`Bounds of ${c.name}: ${c.address}, with a radius of ${formatDistance(c.radius_meters)}`}
                          radius={{ center: c.center, meters: c.radius_meters }}
                        />
                      </Box>
                    </Collapse>
                  </TableCell>
                </TableRow>
              )}
            </Fragment>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
