import AddCircleOutlineOutlined from '@mui/icons-material/AddCircleOutlineOutlined';
import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import SavedSearchOutlined from '@mui/icons-material/SavedSearchOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router';
import { type MonitorSearchSummary } from '../../api/monitor';
import { ApiError } from '../../api/transport';
import { EmptyState } from '../../components/EmptyState';
import { FavouriteButton } from '../../components/FavouriteButton';
import { GroupActionsMenu } from '../../components/GroupActionsMenu';
import { ItemRow } from '../../components/ItemRow';
import { PageHeader } from '../../components/PageHeader';
import { SearchActionsMenu } from '../../components/SearchActionsMenu';
import { SearchStatusChip } from '../../components/SearchStatusChip';
import { SharingAvatars } from '../../components/SharingAvatars';
import { useGroupActions, useSearchActions } from '../../hooks/useMonitorActions';
import { useGroupQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSearchBuilder } from '../../hooks/useSearchBuilder';
import { countOf } from '../../lib/countFormat';
import { PRIVACY_OPTIONS } from '../../lib/sharing';
import { NotFoundPage } from '../NotFoundPage';

function SearchRow({ search }: { search: MonitorSearchSummary }) {
  const actions = useSearchActions();
  const running = search.status === 'active' || search.status === 'scheduled';
  const switchable =
    search.canEdit && (search.status === 'active' || search.status === 'paused' || search.status === 'scheduled');
  return (
    <ItemRow>
      <FavouriteButton
        name={search.value}
        favourite={search.favourite}
        onToggle={() => void actions.favourite(search)}
      />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Link
            component={RouterLink}
            to={`../../${search.id}`}
            relative="path"
            underline="hover"
            sx={{ fontWeight: 650 }}
          >
            {search.value}
          </Link>
          <SearchStatusChip status={search.status} />
        </Stack>
        <Typography variant="body2" color="text.secondary" noWrap>
          {search.search.keywords.length > 0 ? search.search.keywords.join(' · ') : 'No keywords'} ·{' '}
          {search.search.providers.length} data sources
        </Typography>
      </Box>
      {switchable && (
        <Tooltip title={running ? 'Pause' : 'Resume'}>
          <Switch
            checked={search.enabled}
            onChange={() => (search.enabled ? actions.pause(search) : void actions.resume(search))}
            slotProps={{ input: { 'aria-label': `${search.value} is running` } }}
          />
        </Tooltip>
      )}
      <SearchActionsMenu search={search} />
    </ItemRow>
  );
}

/** groups/{groupId}: one group, its sharing and its saved searches. */
export function GroupPage() {
  const { groupId } = useParams();
  const id = Number(groupId);
  const profile = useProfile();
  const builder = useSearchBuilder();
  const groupActions = useGroupActions();
  const group = useGroupQuery(id);

  if (!Number.isInteger(id) || (group.error instanceof ApiError && group.error.status === 404)) return <NotFoundPage />;
  if (group.isError && !(group.error instanceof ApiError && group.error.canceled)) {
    return <Alert severity="error">{group.error.message}</Alert>;
  }
  if (!group.data) {
    return (
      <Stack spacing={1} role="status" aria-label="Loading the group">
        <Skeleton variant="text" width={280} height={48} />
        <Skeleton variant="rounded" height={64} />
        <Skeleton variant="rounded" height={64} />
      </Stack>
    );
  }
  const data = group.data;
  const name = data.isSavedSearch ? 'Uncategorized' : data.name;
  return (
    <>
      <Link component={RouterLink} to=".." relative="path" sx={{ display: 'inline-flex', gap: 0.5, mb: 2 }}>
        <ArrowBackOutlined fontSize="small" /> All search groups
      </Link>
      <PageHeader
        title={name}
        subtitle={
          <Stack component="span" direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            {!data.isSavedSearch && (
              <Chip
                component="span"
                size="small"
                variant="outlined"
                label={PRIVACY_OPTIONS.find((o) => o.value === data.privacy)?.label}
              />
            )}
            <span>
              {countOf(data.searches.length, 'search', 'searches')}
              {!data.canEdit && ' · you can view this group'}
            </span>
            <SharingAvatars entries={data.sharedUsers} currentUserId={profile.id} />
          </Stack>
        }
        actions={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <FavouriteButton
              name={name}
              favourite={data.isFavourite}
              onToggle={() => void groupActions.favourite(data)}
            />
            {data.canEdit && !data.isSavedSearch && (
              <Button
                variant="contained"
                startIcon={<AddCircleOutlineOutlined />}
                onClick={() => builder.create({ groupId: data.id })}
              >
                New search
              </Button>
            )}
            <GroupActionsMenu group={data} />
          </Stack>
        }
      />
      {data.searches.length === 0 ? (
        <EmptyState icon={SavedSearchOutlined} title="No saved searches in this group">
          {data.canEdit && !data.isSavedSearch
            ? 'Create a search here, or move one from another group.'
            : 'Searches added to this group appear here.'}
        </EmptyState>
      ) : (
        <Stack
          component="ul"
          spacing={1}
          aria-label={`Saved searches in ${name}`}
          sx={{ listStyle: 'none', m: 0, p: 0 }}
        >
          {[...data.searches]
            .sort((a, b) => Number(b.favourite) - Number(a.favourite) || a.value.localeCompare(b.value))
            .map((search) => (
              <SearchRow key={search.id} search={search} />
            ))}
        </Stack>
      )}
    </>
  );
}
