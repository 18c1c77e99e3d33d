import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import type { Analytics } from '../../api/analytics';
import { formatCount } from '../../lib/countFormat';
import { LoadError } from '../LoadError';

// ECharts stays in its own chunk until a chart is shown.
const DailyChart = lazy(() => import('./DailyChart').then((module) => ({ default: module.DailyChart })));

const SMALLEST_REM = 0.85;
const LARGEST_REM = 2.1;

/**
 * What the results are about (search-side.md section 9): their most used words, sized by how
 * many posts use them (a click adds the word to the search), and the results of each day of the
 * last week.
 */
export function AnalyticsPanel({
  analytics,
  error,
  onRetry,
  onWord,
}: {
  analytics: Analytics | undefined;
  error: Error | null;
  onRetry: () => void;
  onWord: (word: string) => void;
}) {
  return (
    <Paper variant="outlined" component="section" aria-label="Analytics" sx={{ p: 2, mb: 2 }}>
      {error && !analytics ? (
        <LoadError onRetry={onRetry}>The analytics could not be loaded: {error.message}</LoadError>
      ) : !analytics ? (
        <Stack spacing={1} role="status" aria-label="Loading the analytics">
          <Skeleton variant="rounded" height={120} />
          <Skeleton variant="rounded" height={180} />
        </Stack>
      ) : (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
          <Box sx={{ flex: 3, minWidth: 0 }}>
            <Typography variant="subtitle2" component="h2">
              Most used words
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {coverage(analytics)} Click a word to add it to the search.
            </Typography>
            <WordCloud words={analytics.wordCloud} onWord={onWord} />
          </Box>
          <Box sx={{ flex: 2, minWidth: 0 }}>
            <Typography variant="subtitle2" component="h2">
              Results per day
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {analytics.dailyIsEstimate
                ? 'The last 7 days (UTC); days beyond the newest results are estimated.'
                : 'The last 7 days (UTC).'}
            </Typography>
            <Suspense fallback={<Skeleton variant="rounded" height={200} />}>
              <DailyChart daily={analytics.daily} estimate={analytics.dailyIsEstimate} />
            </Suspense>
          </Box>
        </Stack>
      )}
    </Paper>
  );
}

/** What the word counts cover: every result read, or the newest read and the older ones sampled. */
function coverage({ analyzed, sampled, sampleRate, complete, reached }: Analytics): string {
  const since = complete ? '' : ` since ${new Date(reached).toLocaleString()}`;
  if (sampleRate >= 1) {
    return complete ? `In all ${formatCount(analyzed)} results.` : `In the ${formatCount(analyzed)} results${since}.`;
  }
  const newest = analyzed - sampled;
  const estimate = newest + Math.round(sampled / sampleRate);
  const of = complete ? 'In all of about' : 'In the about';
  return `${of} ${formatCount(estimate)} results${since}: the newest ${formatCount(newest)} read, the older ones sampled (1 in ${formatCount(Math.round(1 / sampleRate))}).`;
}

function WordCloud({ words, onWord }: { words: Analytics['wordCloud']; onWord: (word: string) => void }) {
  if (words.length === 0) {
    return <Typography color="text.secondary">The results have no words to count.</Typography>;
  }
  const most = words[0]?.count ?? 1;
  const least = words.at(-1)?.count ?? 1;
  // Alphabetical, so that the eye finds a word; size says how much it is used.
  const shown = [...words].sort((a, b) => a.word.localeCompare(b.word));
  return (
    <Box
      component="ul"
      aria-label="Most used words"
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '2px 12px', listStyle: 'none', m: 0, p: 0 }}
    >
      {shown.map(({ word, count }) => {
        const weight = most === least ? 1 : Math.sqrt((count - least) / (most - least));
        return (
          <li key={word}>
            <ButtonBase
              onClick={() => onWord(word)}
              aria-label={`${word}, in ${count} results: add to the search`}
              title={`${formatCount(count)} results`}
              sx={{
                fontSize: `${SMALLEST_REM + weight * (LARGEST_REM - SMALLEST_REM)}rem`,
                fontWeight: weight > 0.5 ? 700 : 500,
                color: weight > 0.5 ? 'primary.main' : 'text.primary',
                borderRadius: 1,
                px: 0.5,
                '&:hover': { bgcolor: 'action.hover' },
              }}
            >
              {word}
            </ButtonBase>
          </li>
        );
      })}
    </Box>
  );
}
