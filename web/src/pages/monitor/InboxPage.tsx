import Box from '@mui/material/Box';
import { useLocation, useNavigate } from 'react-router';
import { Inbox } from '../../components/inbox/Inbox';
import { InboxStories } from '../../components/inbox/InboxStories';
import { InboxViewToggle, type InboxPageView } from '../../components/inbox/InboxViewToggle';
import { PageHeader } from '../../components/PageHeader';
import { useMatchCountsQuery } from '../../hooks/useMatchesQuery';
import { countOf, formatCount } from '../../lib/countFormat';

/** matches/grid, matches/list, matches/map and matches/stories: one inbox, four ways to look at it. */
export function InboxPage({ view }: { view: InboxPageView }) {
  // Switching views keeps the search text and every other filter in the address.
  const { search } = useLocation();
  const navigate = useNavigate();
  const counts = useMatchCountsQuery();
  return (
    <>
      <Box sx={{ px: { xs: 1, md: 2 }, pt: { xs: 2, md: 3 } }}>
        <PageHeader
          title="Inbox"
          subtitle={
            counts.data
              ? `${countOf(counts.data.totalCount, 'match', 'matches')} · ${formatCount(counts.data.unreadCount)} unread · ${formatCount(counts.data.flaggedCount)} flagged`
              : 'Posts that match your saved searches.'
          }
          actions={
            <InboxViewToggle
              value={view}
              label="Inbox view"
              withStories
              onChange={(next) => void navigate(`../${next}${search}`, { relative: 'path' })}
            />
          }
        />
      </Box>
      {view === 'stories' ? <InboxStories /> : <Inbox view={view} />}
    </>
  );
}
