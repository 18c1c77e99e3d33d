import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import type { Post, Provider } from '../../api/monitor';
import { ApiError } from '../../api/transport';
import { AnalysisDialog } from '../../components/assistant/AnalysisDialog';
import { AnalyzeButton } from '../../components/assistant/AnalyzeButton';
import { EmptyState } from '../../components/EmptyState';
import { MentionedPlaces } from '../../components/inbox/MentionedPlaces';
import { ThreadDialog } from '../../components/inbox/ThreadDialog';
import { LoadError } from '../../components/LoadError';
import { AddToCaseButton } from '../../components/cases/AddToCaseButton';
import { CaptureButton } from '../../components/evidence/CaptureButton';
import { PageHeader } from '../../components/PageHeader';
import { PostCard } from '../../components/post/PostCard';
import { PostLinks } from '../../components/post/PostLinks';
import { Sparkline } from '../../components/sources/Sparkline';
import { PlacesMap } from '../../components/dashboard/PlacesMap';
import { StoryCounts } from '../../components/stories/StoryFacts';
import { useAuthorLink } from '../../hooks/useAuthorLink';
import { useExternalLink } from '../../hooks/useExternalLink';
import { useProvidersQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { useStoryQuery } from '../../hooks/useStoryQueries';
import { countOf } from '../../lib/countFormat';
import { formatDateTime } from '../../lib/dateRange';
import { authorOf } from '../../lib/postAuthor';
import { hourlyCounts, providerName, storyLanguageName, storyPlaces } from '../../lib/stories';

/** monitor/stories/:id: one story, everything in it counted over the posts the user may see. */
export function StoryPage() {
  const { id = '' } = useParams();
  const storyQuery = useStoryQuery(id);
  const providersQuery = useProvidersQuery();
  const profile = useProfile();
  const openExternal = useExternalLink();
  const authorLink = useAuthorLink();
  const [threadOf, setThreadOf] = useState<Post | null>(null);
  const [analysed, setAnalysed] = useState<Post | null>(null);
  const providers = useMemo(
    () => new Map<string, Provider>((providersQuery.data ?? []).map((p) => [p.name, p])),
    [providersQuery.data],
  );
  const loaded = useMemo(() => storyQuery.data?.pages.flatMap((page) => page.posts) ?? [], [storyQuery.data]);
  const places = useMemo(() => storyPlaces(loaded), [loaded]);
  // A place opens the inbox's matches that name it.
  const placeLink = useCallback(
    (place: { name: string }) =>
      `../../matches/grid?${new URLSearchParams({ searchText: place.name, searchIn: 'titleText' }).toString()}`,
    [],
  );

  if (storyQuery.error instanceof ApiError && storyQuery.error.status === 404) {
    return (
      <Box sx={{ p: { xs: 1, md: 2 }, pt: { xs: 2, md: 3 } }}>
        <EmptyState
          icon={SearchOffOutlined}
          title="This story is not available"
          actions={
            <Button component={RouterLink} to="../../matches/stories" relative="path" variant="contained">
              Back to the stories
            </Button>
          }
        >
          It does not exist, or none of its posts are in the sources you may see.
        </EmptyState>
      </Box>
    );
  }
  if (storyQuery.isError) {
    return (
      <Box sx={{ p: { xs: 1, md: 2 }, pt: { xs: 2, md: 3 } }}>
        <LoadError onRetry={() => void storyQuery.refetch()}>The story could not be loaded.</LoadError>
      </Box>
    );
  }
  if (storyQuery.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
        <CircularProgress aria-label="Loading the story" />
      </Box>
    );
  }

  const pages = storyQuery.data.pages;
  // The newest page counts the story as it is now; the posts are every page's.
  const story = pages[pages.length - 1] ?? pages[0];
  if (!story) return null;
  const posts = loaded;
  const first = new Date(story.firstSeenAt);
  const last = new Date(story.lastSeenAt);
  return (
    <Box sx={{ px: { xs: 1, md: 2 }, pt: { xs: 2, md: 3 }, pb: 4 }}>
      <PageHeader
        title={story.title || 'Untitled story'}
        subtitle={`${countOf(story.providers.length, 'source', 'sources')} · ${countOf(story.languages.length, 'language', 'languages')}`}
        actions={
          <>
            <CaptureButton target={{ storyId: story.id }} compact={false} />
            <AddToCaseButton target={{ storyId: story.id }} compact={false} />
          </>
        }
      />
      <Stack spacing={2} sx={{ mb: 3 }}>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
        >
          <Typography component="dt" color="text.secondary">
            First seen
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            <time dateTime={first.toISOString()}>{formatDateTime(first)}</time>
          </Typography>
          <Typography component="dt" color="text.secondary">
            Last seen
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            <time dateTime={last.toISOString()}>{formatDateTime(last)}</time>
          </Typography>
          <Typography component="dt" color="text.secondary">
            Posts
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {story.postCount}
          </Typography>
        </Box>
        <section aria-labelledby="story-timeline">
          <Typography variant="h6" component="h2" id="story-timeline" gutterBottom>
            Posts an hour
          </Typography>
          <Sparkline
            values={hourlyCounts(story.timeline)}
            label={`${countOf(story.postCount, 'post', 'posts')} from ${formatDateTime(first)} to ${formatDateTime(last)}`}
            width={640}
            height={96}
          />
        </section>
        <StoryCounts title="Sources" counts={story.providers} nameOf={providerName(providers)} />
        <StoryCounts title="Languages" counts={story.languages} nameOf={storyLanguageName} />
        <section aria-labelledby="story-places">
          <Typography variant="h6" component="h2" id="story-places" gutterBottom>
            Places
          </Typography>
          {places.length > 0 ? (
            <>
              <PlacesMap places={places} linkOf={placeLink} />
              <Typography variant="body2" color="text.secondary">
                {places.map((p) => `${p.name} (${p.count})`).join(' · ')}
                {posts.length < story.postCount && ` — named in the ${countOf(posts.length, 'post', 'posts')} loaded`}
              </Typography>
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {posts.length < story.postCount
                ? 'The posts loaded name no place; load more posts to look further.'
                : 'Its posts name no place.'}
            </Typography>
          )}
        </section>
      </Stack>
      <section aria-labelledby="story-posts">
        <Typography variant="h6" component="h2" id="story-posts" gutterBottom>
          Posts, oldest first
        </Typography>
        <Stack component="ul" aria-label="Posts of the story" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {posts.map((post, i) => (
            <li key={post.id}>
              <PostCard
                post={post}
                provider={providers.get(post.provider)}
                terms={[]}
                blurMedia={profile.media_sensitivity === 'blur'}
                variant="list"
                label={`Post by ${authorOf(post)}`}
                published={new Date(post.published_at)}
                positionInFeed={i + 1}
                feedSize={story.postCount}
                onOpenVideo={openExternal}
                authorHref={authorLink(post)}
                details={<MentionedPlaces post={post} />}
                actions={
                  <>
                    <AnalyzeButton onClick={() => setAnalysed(post)} />
                    <PostLinks post={post} onThread={() => setThreadOf(post)} onOpenPost={openExternal} />
                  </>
                }
              />
            </li>
          ))}
        </Stack>
        {storyQuery.hasNextPage && (
          <Box sx={{ textAlign: 'center', mt: 2 }}>
            <Button
              variant="outlined"
              loading={storyQuery.isFetchingNextPage}
              onClick={() => void storyQuery.fetchNextPage()}
            >
              Load more
            </Button>
          </Box>
        )}
      </section>
      {threadOf && (
        <ThreadDialog
          post={threadOf}
          provider={providers.get(threadOf.provider)}
          terms={[]}
          onClose={() => setThreadOf(null)}
        />
      )}
      {analysed && (
        <AnalysisDialog postId={analysed.id} author={authorOf(analysed)} onClose={() => setAnalysed(null)} />
      )}
    </Box>
  );
}
