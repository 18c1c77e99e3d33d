import FilterAltOutlined from '@mui/icons-material/FilterAltOutlined';
import PlaylistAddOutlined from '@mui/icons-material/PlaylistAddOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { entriesOf, type PrebuiltFilterList } from '../../api/filters';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import {
  useCreateFilterList,
  useFilterListDetailsQuery,
  usePrebuiltFilterListsQuery,
} from '../../hooks/useFilterListQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { assetLimitOf } from '../../lib/assetLimit';
import { useLimitDialog } from '../../hooks/useFailureReport';
import { countOf, kindLabels, levelLabels } from './filterLabels';

/** filters: the lists the user can see, and the prebuilt lists to start one from. */
export function FiltersPage() {
  const lists = useFilterListDetailsQuery();
  return (
    <>
      <PageHeader
        title="Search filters"
        subtitle="Keyword, author and object-detection lists that narrow what saved searches collect."
        actions={
          <Button component={RouterLink} to="new" variant="contained" startIcon={<PlaylistAddOutlined />}>
            New filter list
          </Button>
        }
      />
      {lists.isPending ? (
        <Stack spacing={1} role="status" aria-label="Loading filter lists">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={48} />
          ))}
        </Stack>
      ) : lists.isError ? (
        <LoadError onRetry={() => void lists.refetch()}>
          The filter lists could not be loaded: {lists.error.message}
        </LoadError>
      ) : lists.data.length === 0 ? (
        <EmptyState icon={FilterAltOutlined} title="No filter lists yet">
          Create a list with New filter list, or start from one of the prebuilt lists below. Attach it to a saved search
          in the search builder's Search filters panel.
        </EmptyState>
      ) : (
        <TableContainer component={Box} sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" aria-label="Filter lists">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Type</TableCell>
                <TableCell align="right">Entries</TableCell>
                <TableCell>Owner</TableCell>
                <TableCell>Your access</TableCell>
                <TableCell>Used by</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lists.data.map((list) => (
                <TableRow key={list.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={String(list.id)}>
                      {list.name}
                    </Link>
                  </TableCell>
                  <TableCell>{kindLabels[list.kind]}</TableCell>
                  <TableCell align="right">{entriesOf(list).length.toLocaleString()}</TableCell>
                  <TableCell>{list.owner.email}</TableCell>
                  <TableCell>{levelLabels[list.userPermissionLevel]}</TableCell>
                  <TableCell>
                    {list.searches.length === 0
                      ? 'No saved search'
                      : countOf(list.searches.length, 'saved search', 'saved searches')}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <PrebuiltLists />
    </>
  );
}

/** The lists that ship with Sightline; using one copies it into a list the user owns. */
function PrebuiltLists() {
  const prebuilt = usePrebuiltFilterListsQuery();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const create = useCreateFilterList();
  // Which list is being copied, for its button's label; create.isPending says whether one is.
  const [chosen, setChosen] = useState<string | null>(null);
  const copying = create.isPending ? chosen : null;
  const showLimit = useLimitDialog();

  const use = (p: PrebuiltFilterList) => {
    setChosen(p.id);
    const entries = p.type === 'author' ? p.authors : p.type === 'object_detection' ? p.objects : p.keywords;
    create.mutate(
      { name: p.name, type: p.type, inclusion: p.inclusion, keywords: entries },
      {
        onSuccess: (created) => {
          snackbar.show({ color: 'success', text: `“${p.name}” added to your filter lists` });
          void navigate(String(created.data.id));
        },
        onError: (error) => {
          const reached = assetLimitOf(error);
          if (reached) showLimit(reached);
          else
            snackbar.show({
              color: 'error',
              text: error instanceof Error ? error.message : 'The list could not be added.',
            });
        },
      },
    );
  };

  return (
    <Box component="section" aria-labelledby="prebuilt-heading" sx={{ mt: 5 }}>
      <Typography id="prebuilt-heading" variant="h3" component="h2" sx={{ mb: 0.5 }}>
        Prebuilt lists
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Ready-made lists. Using one adds a copy you own and can edit.
      </Typography>
      {prebuilt.isPending ? (
        <Skeleton variant="rounded" height={120} role="status" aria-label="Loading prebuilt lists" />
      ) : prebuilt.isError ? (
        <LoadError onRetry={() => void prebuilt.refetch()}>
          The prebuilt lists could not be loaded: {prebuilt.error.message}
        </LoadError>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' }}>
          {prebuilt.data.map((p) => {
            const size = (p.type === 'author' ? p.authors : p.type === 'object_detection' ? p.objects : p.keywords)
              .length;
            return (
              <Card key={p.id} variant="outlined" component="article" aria-label={p.name}>
                <CardContent>
                  <Typography variant="h6" component="h3">
                    {p.name}
                  </Typography>
                  <Stack direction="row" spacing={1} sx={{ my: 1 }}>
                    <Chip size="small" label={kindLabels[p.kind]} />
                    <Chip size="small" variant="outlined" label={countOf(size, 'entry', 'entries')} />
                  </Stack>
                  <Typography variant="body2" color="text.secondary">
                    {p.description}
                  </Typography>
                </CardContent>
                <CardActions>
                  <Button
                    size="small"
                    onClick={() => use(p)}
                    disabled={copying !== null}
                    aria-label={`${copying === p.id ? 'Adding…' : 'Use this list'}: ${p.name}`}
                  >
                    {copying === p.id ? 'Adding…' : 'Use this list'}
                  </Button>
                </CardActions>
              </Card>
            );
          })}
        </Box>
      )}
    </Box>
  );
}
