import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { Provider } from '../../api/monitor';
import type { InboxStory } from '../../api/stories';
import { useMuteStory } from '../../hooks/useNotificationQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { countOf } from '../../lib/countFormat';
import { authorOf } from '../../lib/postAuthor';
import { hourlyCounts, providerName, storyLanguageName } from '../../lib/stories';
import { AddToCaseButton } from '../cases/AddToCaseButton';
import { CaptureButton } from '../evidence/CaptureButton';
import { RelativeTime } from '../RelativeTime';
import { Sparkline } from '../sources/Sparkline';
import { StoryCounts } from './StoryFacts';

/**
 * One story of the inbox: its title (a link to the story page), how many of the inbox's matches
 * are in it, its sources, languages and timeline, and its newest match, all from the grouped
 * reply (counted over the posts the user may see); the story can be captured as evidence and
 * added to a case from the card.
 */
export function StoryCard({ row, providers }: { row: InboxStory; providers: Map<string, Provider> }) {
  const story = row.story;
  const newest = row.newestMatch;
  const title = story?.title || newest.post.title_text || newest.post.content_text?.slice(0, 160) || 'Untitled story';
  const headingId = `story-${row.storyId}`;
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
          {countOf(row.matchCount, 'match', 'matches')} in this inbox
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
        <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center' }}>
          <MuteInAlerts
            searchId={newest.matchMeta.monitorSearchId}
            searchName={newest.monitorSearchName}
            storyId={row.storyId}
          />
          <CaptureButton target={{ storyId: row.storyId }} />
          <AddToCaseButton target={{ storyId: row.storyId }} />
        </Stack>
      </Stack>
    </Box>
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
