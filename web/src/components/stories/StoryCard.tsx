import ExpandMore from '@mui/icons-material/ExpandMore';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import OutlinedFlagOutlined from '@mui/icons-material/OutlinedFlagOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { MatchQuery, Provider } from '../../api/monitor';
import type { InboxStory } from '../../api/stories';
import { type MatchAction, resultMessage, useFlagWarning } from '../../hooks/useMatchActions';
import { useMuteStory } from '../../hooks/useNotificationQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { useStoryAction, useStoryMatchesQuery } from '../../hooks/useStoryQueries';
import { countOf } from '../../lib/countFormat';
import type { Term } from '../../lib/highlight';
import { authorOf } from '../../lib/postAuthor';
import { hourlyCounts, providerName, storyLanguageName } from '../../lib/stories';
import { ActionsMenu } from '../ActionsMenu';
import { AddToCaseButton } from '../cases/AddToCaseButton';
import { CaptureButton } from '../evidence/CaptureButton';
import { MatchCard, type MatchCardActions } from '../inbox/MatchCard';
import { LoadError } from '../LoadError';
import { RelativeTime } from '../RelativeTime';
import { Sparkline } from '../sources/Sparkline';
import { StoryCounts } from './StoryFacts';

/** The inbox a story card belongs to: what selects its matches and what their cards do. */
export interface StoryInbox {
  /** The inbox's filters: a story's matches are the ones they select. */
  query: MatchQuery;
  /** When the stories were read (ms since 1970): an action on a whole story stops there. */
  asOf?: number;
  actions: MatchCardActions;
  terms: Map<number, Term[]>;
  blurMedia: boolean;
}

/**
 * One story of the inbox: its title (a link to the story page), how many of the inbox's matches
 * are in it, its sources, languages and timeline, and its newest match, all from the grouped
 * reply (counted over the posts the user may see). The count expands into those matches, each
 * with its own buttons; the story's matches can be marked read or flagged at once, and the story
 * captured as evidence and added to a case.
 */
export function StoryCard({
  row,
  providers,
  inbox,
}: {
  row: InboxStory;
  providers: Map<string, Provider>;
  inbox: StoryInbox;
}) {
  const story = row.story;
  const newest = row.newestMatch;
  const title = story?.title || newest.post.title_text || newest.post.content_text?.slice(0, 160) || 'Untitled story';
  const headingId = `story-${row.storyId}`;
  const listId = useId();
  const [expanded, setExpanded] = useState(false);
  const matchesQuery = useStoryMatchesQuery(inbox.query, row.storyId, expanded);
  // An action covers what the user sees: the matches listed when expanded, else the ones counted.
  const upTo = (expanded && matchesQuery.data?.pages[0]?.asOf) || inbox.asOf;
  return (
    <Box
      component="article"
      aria-labelledby={headingId}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2, bgcolor: 'background.paper' }}
    >
      <Stack spacing={1}>
        <Typography variant="h6" component="h2" id={headingId} sx={{ overflowWrap: 'anywhere' }}>
          <Link component={RouterLink} to={`../../stories/${encodeURIComponent(row.storyId)}`} relative="path">
            {title}
          </Link>
        </Typography>
        <Typography variant="body2" color="text.secondary">
          <Button
            size="small"
            aria-expanded={expanded}
            aria-controls={listId}
            onClick={() => setExpanded(!expanded)}
            startIcon={
              <ExpandMore sx={{ transition: 'transform 150ms', transform: expanded ? 'rotate(180deg)' : undefined }} />
            }
            sx={{ ml: -0.75, py: 0, textTransform: 'none', typography: 'body2' }}
          >
            {countOf(row.matchCount, 'match', 'matches')} in this inbox
          </Button>
          {story.postCount > 0 && ` · ${countOf(story.postCount, 'post', 'posts')} in the story`}
        </Typography>
        {story.postCount > 0 && (
          <>
            <StoryCounts title="Sources" counts={story.providers} nameOf={providerName(providers)} />
            <StoryCounts title="Languages" counts={story.languages} nameOf={storyLanguageName} />
            <Sparkline
              values={hourlyCounts(story.timeline)}
              label={`Timeline: ${countOf(story.postCount, 'post', 'posts')} over ${countOf(story.timeline.length, 'hour', 'hours')} with posts`}
              width={240}
            />
          </>
        )}
        <Typography variant="body2">
          Newest match: {authorOf(newest.post)}, <RelativeTime date={new Date(newest.publishedDate * 1000)} /> (
          {newest.monitorSearchName})
        </Typography>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 0.25, rowGap: 0.5 }}>
          <StoryActions query={inbox.query} storyId={row.storyId} upTo={upTo} />
          <MuteInAlerts
            searchId={newest.matchMeta.monitorSearchId}
            searchName={newest.monitorSearchName}
            storyId={row.storyId}
          />
          <CaptureButton target={{ storyId: row.storyId }} />
          <AddToCaseButton target={{ storyId: row.storyId }} />
        </Stack>
        <Box id={listId} hidden={!expanded}>
          {expanded && <StoryMatches query={matchesQuery} providers={providers} inbox={inbox} />}
        </Box>
      </Stack>
    </Box>
  );
}

/** The inbox's matches in the story, under its filters, a page at a time. */
function StoryMatches({
  query,
  providers,
  inbox,
}: {
  query: ReturnType<typeof useStoryMatchesQuery>;
  providers: Map<string, Provider>;
  inbox: StoryInbox;
}) {
  if (query.isPending) {
    return (
      <CircularProgress size={24} aria-label="Loading the story's matches" sx={{ display: 'block', mx: 'auto' }} />
    );
  }
  if (query.isError) {
    return <LoadError onRetry={() => void query.refetch()}>The story's matches could not be loaded.</LoadError>;
  }
  const matches = query.data.pages.flatMap((page) => page.matches);
  const total = query.data.pages[0]?.total ?? 0;
  if (matches.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        None of the story's matches are left for these filters.
      </Typography>
    );
  }
  return (
    <Stack spacing={1}>
      <Stack spacing={1} role="feed" aria-label="Matches in this story" aria-busy={query.isFetchingNextPage}>
        {matches.map((match, index) => (
          <MatchCard
            key={match.matchMeta.matchId}
            match={match}
            positionInFeed={index + 1}
            feedSize={total}
            provider={providers.get(match.post.provider)}
            variant="list"
            selected={false}
            terms={inbox.terms.get(match.matchMeta.monitorSearchId) ?? []}
            blurMedia={inbox.blurMedia}
            actions={inbox.actions}
          />
        ))}
      </Stack>
      {query.hasNextPage && (
        <Box sx={{ textAlign: 'center' }}>
          <Button size="small" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            Show more matches
          </Button>
        </Box>
      )}
    </Stack>
  );
}

type StoryActionItem = { label: string; action: MatchAction; icon: typeof FlagOutlined };

// The common ones as buttons, their opposites in a menu.
const storyButtons: StoryActionItem[] = [
  { label: 'Mark story read', action: { flag: 'is-read', value: true }, icon: MarkEmailReadOutlined },
  { label: 'Flag story', action: { flag: 'is-flagged', value: true }, icon: FlagOutlined },
];
const storyMenu: StoryActionItem[] = [
  { label: 'Mark story unread', action: { flag: 'is-read', value: false }, icon: MarkEmailUnreadOutlined },
  { label: 'Unflag story', action: { flag: 'is-flagged', value: false }, icon: OutlinedFlagOutlined },
];

/**
 * Marks read or flags every match of the inbox in the story that its filters select, loaded or
 * not, up to upTo; the server leaves alone what the user may not flag, and says so.
 */
function StoryActions({ query, storyId, upTo }: { query: MatchQuery; storyId: string; upTo?: number }) {
  const act = useStoryAction(query, storyId);
  const warnBeforeFlag = useFlagWarning();
  const snackbar = useSnackbar();
  const run = (action: MatchAction) =>
    warnBeforeFlag(action, () =>
      act.mutate(
        { action, upTo },
        {
          onSuccess: (result) => snackbar.show(resultMessage(action, result)),
          onError: (error) => snackbar.show({ color: 'error', text: error.message }),
        },
      ),
    );
  return (
    <>
      {storyButtons.map(({ label, action, icon: Icon }) => (
        <Button key={label} size="small" startIcon={<Icon />} disabled={act.isPending} onClick={() => run(action)}>
          {label}
        </Button>
      ))}
      <ActionsMenu
        label="More actions on the story"
        actions={storyMenu.map(({ label, action, icon }) => ({ label, icon, onClick: () => run(action) }))}
      />
    </>
  );
}

/**
 * Mutes the story in the alerts of the search its newest match came from: its matches stop
 * being sent there (the server refuses someone who cannot edit that search's alerts).
 */
function MuteInAlerts({ searchId, searchName, storyId }: { searchId: number; searchName: string; storyId: string }) {
  const mute = useMuteStory(searchId);
  const snackbar = useSnackbar();
  const muted = mute.data?.mutedStories.some((m) => m.storyId === storyId) === true;
  return (
    <Box>
      <Button
        size="small"
        disabled={mute.isPending}
        onClick={() =>
          mute.mutate(
            { storyId, mute: !muted },
            {
              onSuccess: () =>
                snackbar.show({
                  text: muted ? `Story unmuted in “${searchName}” alerts` : `Story muted in “${searchName}” alerts`,
                  color: 'success',
                }),
              onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
            },
          )
        }
      >
        {muted ? `Unmute in “${searchName}” alerts` : `Mute in “${searchName}” alerts`}
      </Button>
    </Box>
  );
}
