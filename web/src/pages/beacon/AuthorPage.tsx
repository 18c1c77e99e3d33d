import PersonSearchOutlined from '@mui/icons-material/PersonSearchOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router';
import { AnalyticsPanel } from '../../components/analytics/AnalyticsPanel';
import { ResultList } from '../../components/beacon/ResultList';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { AUTHOR_POSTS, useAuthorPosts, useBeaconAnalytics, usePostFlags } from '../../hooks/useBeaconQueries';
import { useProvidersQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { postsByHour, postsByProvider } from '../../lib/authorProfile';
import { newSearch, searchParams } from '../../lib/beaconSearch';
import { formatCount } from '../../lib/countFormat';

// ECharts stays in its own chunk until a chart is shown.
const HoursChart = lazy(() =>
  import('../../components/analytics/HoursChart').then((module) => ({ default: module.HoursChart })),
);
const CountBarsChart = lazy(() =>
  import('../../components/dashboard/charts').then((module) => ({ default: module.CountBarsChart })),
);

/**
 * An author's profile: their most recent results, where they post, at what hours and with which
 * words. Opened from the author's name on any card.
 */
export function AuthorPage() {
  const [params] = useSearchParams();
  const name = params.get('name')?.trim() ?? '';
  if (!name) return <Navigate to="/beacon" replace />;
  return <AuthorProfile key={name} name={name} />;
}

function AuthorProfile({ name }: { name: string }) {
  const profile = useProfile();
  const navigate = useNavigate();
  const providersQuery = useProvidersQuery();
  const providers = useMemo(
    () => new Map((providersQuery.data ?? []).map((p) => [p.name, p] as const)),
    [providersQuery.data],
  );
  const authored = useAuthorPosts(name);
  const analytics = useBeaconAnalytics('all', { query: '', authors: [name] }, true);
  const flags = usePostFlags();
  const posts = useMemo(() => authored.data?.posts ?? [], [authored.data]);
  const byProvider = useMemo(() => postsByProvider(posts), [posts]);
  const hours = useMemo(() => postsByHour(posts), [posts]);
  const searchAuthor = searchParams({ ...newSearch(''), authors: [name] }).toString();

  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2, gap: 2 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="overline" color="text.secondary">
            Author
          </Typography>
          <Typography variant="h2" component="h1" noWrap>
            {name}
          </Typography>
        </Box>
        <Button component={RouterLink} to={`/beacon/results?${searchAuthor}`} variant="outlined">
          Search their posts
        </Button>
      </Stack>
      {authored.isPending ? (
        <Stack spacing={1.25} role="status" aria-label="Loading the author’s posts">
          <Skeleton variant="rounded" height={200} />
          <Skeleton variant="rounded" height={96} />
        </Stack>
      ) : authored.isError ? (
        <LoadError onRetry={() => void authored.refetch()}>
          The author’s posts could not be loaded: {authored.error.message}
        </LoadError>
      ) : posts.length === 0 ? (
        <EmptyState icon={PersonSearchOutlined} title={`No posts by ${name} in the last 30 days`}>
          {profile.retentionDays <= 30 ? 'Posts are kept 30 days. ' : ''}Search for the author in Beacon to try another
          spelling of the name.
        </EmptyState>
      ) : (
        <Stack spacing={2}>
          <Typography color="text.secondary">
            {authored.data.total > posts.length
              ? `Their ${formatCount(posts.length)} most recent of ${authored.data.estimate ? 'about ' : ''}${formatCount(authored.data.total)} results in the last 30 days.`
              : `All ${formatCount(posts.length)} of their results in the last 30 days.`}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <Paper variant="outlined" component="section" aria-label="Data sources" sx={{ p: 2, flex: 1 }}>
              <Typography variant="subtitle2" component="h2">
                Data sources
              </Typography>
              <Suspense fallback={<Skeleton variant="rounded" height={120} />}>
                <CountBarsChart
                  label={`Their ${AUTHOR_POSTS} most recent results by data source`}
                  rows={byProvider.map((p) => ({
                    label: providers.get(p.provider)?.displayName ?? p.provider,
                    count: p.count,
                  }))}
                />
              </Suspense>
            </Paper>
            <Paper variant="outlined" component="section" aria-label="Active hours" sx={{ p: 2, flex: 2 }}>
              <Typography variant="subtitle2" component="h2">
                Active hours (UTC)
              </Typography>
              <Suspense fallback={<Skeleton variant="rounded" height={200} />}>
                <HoursChart hours={hours} label="Their most recent results by hour of the day, UTC" />
              </Suspense>
            </Paper>
          </Stack>
          <AnalyticsPanel
            analytics={analytics.data}
            error={analytics.error}
            onRetry={() => void analytics.refetch()}
            onWord={(word) =>
              void navigate(`/beacon/results?${searchParams({ ...newSearch(word), authors: [name] }).toString()}`)
            }
          />
          <ResultList
            posts={posts}
            providers={providers}
            terms={[]}
            flagged={flags.ids}
            blurMedia={profile.media_sensitivity === 'blur'}
            onFlag={flags.toggle}
          />
        </Stack>
      )}
    </Box>
  );
}
