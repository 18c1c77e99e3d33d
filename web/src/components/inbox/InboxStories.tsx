import AutoStoriesOutlined from '@mui/icons-material/AutoStoriesOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { Match, MatchQuery, Provider } from '../../api/monitor';
import { type MatchAction, useFlagWarning, useMatchActions } from '../../hooks/useMatchActions';
import { useProvidersQuery, useSearchesQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { useInboxStoriesQuery } from '../../hooks/useStoryQueries';
import { countOf } from '../../lib/countFormat';
import { termsBySearch } from '../../lib/highlight';
import { isFiltered, readInboxQuery, writeInboxQuery } from '../../lib/inboxQuery';
import { EmptyState } from '../EmptyState';
import { LoadError } from '../LoadError';
import { SearchTextFilter } from '../SearchTextFilter';
import { StoryCard, type StoryInbox } from '../stories/StoryCard';
import { InboxToolbar } from './InboxToolbar';
import { useMatchCardActions } from './useMatchCardActions';

/**
 * The inbox a story at a time (matches/stories): the same filters, in the address, as the other
 * views, and one card per story its matches report, newest story first. A card expands into its
 * matches, whose buttons work as in the other views.
 */
export function InboxStories() {
  const [params, setParams] = useSearchParams();
  const paramsKey = params.toString();
  const query = useMemo(() => readInboxQuery(new URLSearchParams(paramsKey)), [paramsKey]);
  const storiesQuery = useInboxStoriesQuery(query);
  const providersQuery = useProvidersQuery();
  const searchesQuery = useSearchesQuery();
  const providers = useMemo(
    () => new Map<string, Provider>((providersQuery.data ?? []).map((p) => [p.name, p])),
    [providersQuery.data],
  );
  const rows = storiesQuery.data?.pages.flatMap((page) => page.stories) ?? [];
  const total = storiesQuery.data?.pages[0]?.total ?? 0;
  const asOf = storiesQuery.data?.pages[0]?.asOf;
  const profile = useProfile();
  const terms = useMemo(
    () => termsBySearch(searchesQuery.data ?? [], query.searchText),
    [searchesQuery.data, query.searchText],
  );
  // A match's own buttons act on it alone, as in the list.
  const runAction = useMatchActions({ filtered: query, all: query });
  const warnBeforeFlag = useFlagWarning();
  const runOne = useCallback(
    (action: MatchAction, match: Match) => warnBeforeFlag(action, () => void runAction(action, 'chosen', [match])),
    [warnBeforeFlag, runAction],
  );
  const { actions, dialogs } = useMatchCardActions({ run: runOne, providers, terms });
  const inbox = useMemo<StoryInbox>(
    () => ({ query, asOf, actions, terms, blurMedia: profile.media_sensitivity === 'blur' }),
    [query, asOf, actions, terms, profile.media_sensitivity],
  );
  const changeQuery = (change: Partial<MatchQuery>) =>
    setParams((current) => writeInboxQuery(current, change), { replace: true });

  return (
    <Stack spacing={1.5} sx={{ px: { xs: 1, md: 2 }, pt: 1, pb: 3 }}>
      <SearchTextFilter />
      <InboxToolbar query={query} onChange={changeQuery} searches={searchesQuery.data} />
      {storiesQuery.isPending && (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
          <CircularProgress aria-label="Loading stories" />
        </Box>
      )}
      {storiesQuery.isError && (
        <LoadError onRetry={() => void storiesQuery.refetch()}>The stories could not be loaded.</LoadError>
      )}
      {storiesQuery.isSuccess && rows.length === 0 && (
        <EmptyState
          icon={AutoStoriesOutlined}
          title={isFiltered(query) ? 'No stories for these filters' : 'No stories yet'}
        >
          {isFiltered(query)
            ? 'Change or clear the filters to see more.'
            : 'When your saved searches match posts, the posts that report the same event are gathered here as one story. Save a search, or wait for its first matches.'}
        </EmptyState>
      )}
      {rows.length > 0 && (
        <>
          <Typography variant="body2" color="text.secondary" role="status">
            {countOf(total, 'story', 'stories')}
          </Typography>
          <Box
            component="ul"
            aria-label="Stories"
            sx={{
              listStyle: 'none',
              m: 0,
              p: 0,
              display: 'grid',
              gap: 1.5,
              gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' },
            }}
          >
            {rows.map((row) => (
              <li key={row.storyId}>
                <StoryCard row={row} providers={providers} inbox={inbox} />
              </li>
            ))}
          </Box>
          {storiesQuery.hasNextPage && (
            <Box sx={{ textAlign: 'center' }}>
              <Button
                variant="outlined"
                loading={storiesQuery.isFetchingNextPage}
                onClick={() => void storiesQuery.fetchNextPage()}
              >
                Load more stories
              </Button>
            </Box>
          )}
        </>
      )}
      {dialogs}
    </Stack>
  );
}
