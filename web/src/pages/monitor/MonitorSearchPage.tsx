import EditOutlined from '@mui/icons-material/EditOutlined';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import PauseCircleOutlined from '@mui/icons-material/PauseCircleOutlined';
import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SearchSpikes } from '../../components/spikes/SearchSpikes';
import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { type MonitorSearch } from '../../api/monitor';
import { ApiError } from '../../api/transport';
import { SearchAlertsDrawer } from '../../components/alerts/SearchAlertsDrawer';
import { FavouriteButton } from '../../components/FavouriteButton';
import { Inbox, type InboxView } from '../../components/inbox/Inbox';
import { InboxViewToggle } from '../../components/inbox/InboxViewToggle';
import { AutoCaptureSelect } from '../../components/evidence/AutoCaptureSelect';
import { SearchActionsMenu } from '../../components/SearchActionsMenu';
import { SearchStatusChip } from '../../components/SearchStatusChip';
import { SharingAvatars } from '../../components/SharingAvatars';
import { SharingDialog } from '../../components/SharingDialog';
import { useSearchActions } from '../../hooks/useMonitorActions';
import { useMatchCountsBySearchQuery } from '../../hooks/useMatchesQuery';
import { useSearchQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSearchBuilder } from '../../hooks/useSearchBuilder';
import { countOf, formatCount } from '../../lib/countFormat';
import { formatDateTime, fromUnixSeconds } from '../../lib/dateRange';
import { NotFoundPage } from '../NotFoundPage';

const views: InboxView[] = ['grid', 'list', 'map'];

function isView(value: string | undefined): value is InboxView {
  return (views as (string | undefined)[]).includes(value);
}

/** The streaming and firehose limit banners, with the override each allows. */
function LimitBanners({ search }: { search: MonitorSearch }) {
  const actions = useSearchActions();
  // When the page opened is good enough to tell whether an override still runs.
  const [now] = useState(() => Date.now() / 1000);
  const streamingRaised = search.streamingOverrideUntil !== null && search.streamingOverrideUntil > now;
  const firehoseRaised = search.gnipOverrideUntil !== null && search.gnipOverrideUntil > now;
  const until = (seconds: number | null) => formatDateTime(fromUnixSeconds(seconds) ?? new Date());
  return (
    <>
      {(search.streamingLowerLimitExceeded || search.streamingUpperLimitExceeded) && !streamingRaised && (
        <Alert
          severity="warning"
          action={
            search.canEdit && (
              <Button color="inherit" size="small" onClick={() => void actions.raiseStreamingLimit(search)}>
                Raise for 24 hours
              </Button>
            )
          }
        >
          Near-real-time data is paused for this search: it collects more posts than the streaming limit allows.
        </Alert>
      )}
      {streamingRaised && (
        <Alert severity="info">The streaming limit is raised until {until(search.streamingOverrideUntil)}.</Alert>
      )}
      {(search.gnipLowerLimitExceeded || search.gnipUpperLimitExceeded) && (
        <Alert
          severity="warning"
          action={
            search.canEdit &&
            !search.gnipUpperLimitExceeded &&
            !firehoseRaised && (
              <Button color="inherit" size="small" onClick={() => void actions.raiseFirehoseLimit(search)}>
                Raise for 6 hours
              </Button>
            )
          }
        >
          {search.gnipUpperLimitExceeded
            ? 'X Firehose stays disabled for this search: its results exceed even the raised limit.'
            : 'X Firehose is disabled for this search: its results exceeded the firehose cap.'}
        </Alert>
      )}
      {firehoseRaised && !search.gnipUpperLimitExceeded && (
        <Alert severity="info">The firehose limit is raised until {until(search.gnipOverrideUntil)}.</Alert>
      )}
    </>
  );
}

/**
 * {monitorSearchId}/{location?}: one saved search, what it looks for, its state and its matches.
 * The optional segment picks the view of its matches (grid, list or map).
 */
export function MonitorSearchPage() {
  const { monitorSearchId, location } = useParams();
  const id = Number(monitorSearchId);
  const valid = Number.isInteger(id) && id > 0;
  const profile = useProfile();
  const builder = useSearchBuilder();
  const actions = useSearchActions();
  const navigate = useNavigate();
  const { search: addressQuery } = useLocation();
  const query = useSearchQuery(valid ? id : undefined);
  const counts = useMatchCountsBySearchQuery(valid ? [id] : []);
  const [sharing, setSharing] = useState(false);
  const [alertsOpen, setAlertsOpen] = useState(false);
  const view: InboxView = isView(location) ? location : 'grid';

  if (!valid || (query.error instanceof ApiError && query.error.status === 404)) return <NotFoundPage />;
  if (query.isError)
    return (
      <Alert severity="error" sx={{ m: 3 }}>
        {query.error.message}
      </Alert>
    );
  if (!query.data) {
    return (
      <Stack spacing={1} sx={{ p: 3 }} role="status" aria-label="Loading the saved search">
        <Skeleton variant="text" width={320} height={48} />
        <Skeleton variant="rounded" height={96} />
      </Stack>
    );
  }
  const search = query.data;
  const terms = search.search;
  const count = counts.data?.[0];
  const start = fromUnixSeconds(search.start_at);
  const end = fromUnixSeconds(search.end_at);
  const canSwitch =
    search.canEdit && (search.status === 'active' || search.status === 'paused' || search.status === 'scheduled');

  return (
    <>
      <Stack spacing={1.5} sx={{ px: { xs: 1, md: 2 }, pt: { xs: 2, md: 3 } }}>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { md: 'flex-start' } }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="h2" component="h1" sx={{ overflowWrap: 'anywhere' }}>
                {search.value}
              </Typography>
              <SearchStatusChip status={search.status} />
              <FavouriteButton
                name={search.value}
                favourite={search.favourite}
                onToggle={() => void actions.favourite(search)}
              />
            </Stack>
            <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
              {terms.summary && <Chip size="small" label={terms.summary} />}
              {terms.address && <Chip size="small" variant="outlined" label={terms.address} />}
              {terms.author_query && <Chip size="small" variant="outlined" label={`Author: ${terms.author_query}`} />}
              {terms.board_names.map((board) => (
                <Chip key={board} size="small" variant="outlined" label={`Board: ${board}`} />
              ))}
              <Typography variant="body2" color="text.secondary">
                {terms.providers.length} data sources
                {start && ` · from ${formatDateTime(start)}`}
                {end && ` · until ${formatDateTime(end)}`}
                {count &&
                  ` · ${countOf(count.totalCount, 'match', 'matches')}, ${formatCount(count.unreadCount)} unread`}
              </Typography>
              <SharingAvatars entries={search.sharedUsers} currentUserId={profile.id} />
            </Stack>
          </Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
            {canSwitch &&
              (search.enabled ? (
                <Button variant="outlined" startIcon={<PauseCircleOutlined />} onClick={() => actions.pause(search)}>
                  Pause
                </Button>
              ) : (
                <Button
                  variant="outlined"
                  startIcon={<PlayCircleOutlined />}
                  onClick={() => void actions.resume(search)}
                >
                  Resume
                </Button>
              ))}
            <AutoCaptureSelect searchId={search.id} canEdit={search.canEdit} />
            <Button variant="outlined" startIcon={<NotificationsOutlined />} onClick={() => setAlertsOpen(true)}>
              Alerts
            </Button>
            {search.canEdit && (
              <Button variant="contained" startIcon={<EditOutlined />} onClick={() => builder.edit(search)}>
                Edit
              </Button>
            )}
            <SearchActionsMenu search={search} onShare={() => setSharing(true)} />
          </Stack>
        </Stack>
        <LimitBanners search={search} />
        <SearchSpikes searchId={search.id} />
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <InboxViewToggle
            value={view}
            label="Matches view"
            onChange={(next) =>
              void navigate(`${location && isView(location) ? '..' : '.'}/${next}${addressQuery}`, { relative: 'path' })
            }
          />
        </Stack>
      </Stack>
      <Inbox view={view} searchId={search.id} />
      {alertsOpen && (
        <SearchAlertsDrawer searchId={search.id} searchName={search.value} onClose={() => setAlertsOpen(false)} />
      )}
      {sharing && (
        <SharingDialog
          open
          onClose={() => setSharing(false)}
          itemName={search.value}
          owner={search.owner}
          entries={search.sharedUsers}
          canManageSharing={search.canManageSharing}
          shareWithIndividuals={profile.organization.feature_flags.share_searches === true}
          saving={actions.sharing}
          onSave={({ sharedUsers }) => actions.share(search, sharedUsers)}
          onRemoveOwnAccess={() => actions.detach(search)}
        />
      )}
    </>
  );
}
