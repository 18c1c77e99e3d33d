import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { type BacktestResult, type Post, type Provider, type SearchRequest } from '../../api/monitor';
import { ApiError } from '../../api/transport';
import { useBacktestQuery } from '../../hooks/useBacktestQuery';
import { countOf } from '../../lib/countFormat';
import { formatDateTime } from '../../lib/dateRange';
import { type Term, termsOf } from '../../lib/highlight';
import { HighlightedText } from '../inbox/HighlightedText';
import { ProviderIcon } from '../ProviderIcon';
import { RelativeTime } from '../RelativeTime';

const WINDOWS = [7, 14, 30] as const;
/** How many days of stored posts saving offers to fill the inbox with; 0 fills nothing. */
const BACKFILL_CHOICES = [0, 1, 3, 7, 14, 30] as const;
export const DEFAULT_BACKFILL_DAYS = 7;
const UNKNOWN_PROVIDER_COLOR = '#6b7280';

/** "21 Nov" from "2026-11-21", read as a calendar date (no time zone shift). */
function dayLabel(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, day ?? 1).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
  });
}

function ratePerDay(rate: number): string {
  if (rate === 0) return 'none a day';
  if (rate < 1) return 'less than one a day';
  return `about ${Math.round(rate).toLocaleString('en-GB')} a day`;
}

/** "about 12 a day (8–17)": the mean of the last days and the fewest and most of one day. */
function expectation({ perDay, low, high }: BacktestResult['expected']): string {
  const range = low === high ? '' : ` (${low.toLocaleString('en-GB')}–${high.toLocaleString('en-GB')})`;
  return ratePerDay(perDay) + range;
}

/** "the last 7 days (37 matches)"; without the count when the preview did not cover those days. */
function backfillLabel(days: number, counts: number[]): string {
  if (days === 0) return 'nothing: only new posts';
  const period = days === 1 ? 'the last day' : `the last ${days} days`;
  const count = counts[days - 1];
  return count === undefined ? period : `${period} (${countOf(count, 'match', 'matches')})`;
}

/** Matches per day as columns; each day is a list item a screen reader reads as "21 Nov: 3 matches". */
function DayBars({ days }: { days: BacktestResult['perDay'] }) {
  const peak = Math.max(0, ...days.map((d) => d.count));
  const highest = Math.max(1, peak);
  const first = days[0];
  const last = days[days.length - 1];
  return (
    <Box>
      <Box
        component="ol"
        aria-label="Matches per day"
        sx={{ display: 'flex', alignItems: 'flex-end', gap: '2px', height: 120, m: 0, p: 0, listStyle: 'none' }}
      >
        {days.map((d) => {
          const label = `${dayLabel(d.date)}: ${countOf(d.count, 'match', 'matches')}`;
          return (
            <Tooltip key={d.date} title={label} disableInteractive>
              <Box
                component="li"
                aria-label={label}
                sx={{ flex: 1, minWidth: 3, height: '100%', display: 'flex', alignItems: 'flex-end' }}
              >
                <Box
                  sx={{
                    width: '100%',
                    height: d.count === 0 ? '2px' : `${Math.max(4, (d.count / highest) * 100)}%`,
                    bgcolor: d.count === 0 ? 'divider' : 'primary.main',
                    borderRadius: '2px 2px 0 0',
                  }}
                />
              </Box>
            </Tooltip>
          );
        })}
      </Box>
      {first && last && (
        <Stack
          direction="row"
          aria-hidden
          sx={{ justifyContent: 'space-between', mt: 0.5, color: 'text.secondary', typography: 'caption' }}
        >
          <span>{dayLabel(first.date)}</span>
          {peak > 0 && <span>Busiest day: {countOf(peak, 'match', 'matches')}</span>}
          <span>{dayLabel(last.date)}</span>
        </Stack>
      )}
    </Box>
  );
}

/** A compact card of a post the draft would have matched. */
function SamplePost({ post, provider, terms }: { post: Post; provider?: Provider; terms: Term[] }) {
  const author = post.author_name || post.author_screen_name || 'Unknown author';
  const published = new Date(post.published_at);
  const color = provider?.color ?? UNKNOWN_PROVIDER_COLOR;
  return (
    <Box
      component="article"
      aria-label={`Post by ${author}`}
      sx={{ p: 1.25, border: 1, borderColor: 'divider', borderLeft: `4px solid ${color}`, borderRadius: 1 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <ProviderIcon
          icon={provider?.icon ?? ''}
          color={color}
          displayName={provider?.displayName ?? post.provider}
          size={20}
        />
        <Typography variant="body2" noWrap sx={{ fontWeight: 600, minWidth: 0 }}>
          {author}
        </Typography>
        <Typography variant="caption" color="text.secondary" noWrap sx={{ flexShrink: 0 }}>
          {provider?.displayName ?? post.provider} · <RelativeTime date={published} />
        </Typography>
      </Stack>
      {post.title_text && (
        <Typography variant="subtitle2" component="h3" sx={{ mt: 0.5 }}>
          <HighlightedText text={post.title_text} terms={terms} />
        </Typography>
      )}
      {post.content_text && (
        <Typography
          variant="body2"
          sx={{
            mt: 0.5,
            display: '-webkit-box',
            WebkitLineClamp: 3,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
            overflowWrap: 'anywhere',
          }}
        >
          <HighlightedText text={post.content_text} terms={terms} />
        </Typography>
      )}
    </Box>
  );
}

function Loading() {
  return (
    <Stack spacing={2} role="progressbar" aria-label="Running the preview">
      <Skeleton variant="text" width="60%" height={32} />
      <Skeleton variant="rectangular" height={120} />
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} variant="rectangular" height={72} />
      ))}
    </Stack>
  );
}

function failureText(error: Error): string[] {
  if (error instanceof ApiError && error.body?.errors) {
    return Object.values(error.body.errors).flat();
  }
  return [error.message];
}

/**
 * The preview of a search before it is saved: how many stored posts of the last days it would
 * have matched, per day, what that means per day from now on, and the newest of those posts.
 */
export function PreviewStep({
  titleId,
  draft,
  monitorSearchId,
  providers,
  editing,
  submitting,
  backfillDays,
  onBackfillDays,
  onBack,
  onSubmit,
}: {
  titleId: string;
  draft: SearchRequest;
  monitorSearchId?: number;
  providers: Provider[];
  editing: boolean;
  submitting: boolean;
  /** Once saved, fill the inbox from the stored posts of this many days (0: none). */
  backfillDays: number;
  onBackfillDays: (days: number) => void;
  onBack: () => void;
  onSubmit: () => void;
}) {
  const [days, setDays] = useState<number>(30);
  const [utcOffsetMinutes] = useState(() => -new Date().getTimezoneOffset());
  const backtest = useBacktestQuery({ ...draft, monitorSearchId, days, utcOffsetMinutes });
  const terms = useMemo(() => termsOf(draft.keywords), [draft.keywords]);
  const result = backtest.data;

  return (
    <>
      <DialogTitle id={titleId}>Preview: {draft.name}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2.5}>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
            <Link component="button" type="button" onClick={onBack} sx={{ display: 'inline-flex', gap: 0.5 }}>
              <ArrowBackOutlined fontSize="small" /> Back to the search
            </Link>
            <TextField
              select
              size="small"
              label="Stored posts of"
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
              sx={{ minWidth: 160 }}
            >
              {WINDOWS.map((n) => (
                <MenuItem key={n} value={n}>
                  the last {n} days
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {backtest.isPending ? (
            <Loading />
          ) : backtest.isError ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void backtest.refetch()}>
                  Try again
                </Button>
              }
            >
              <strong>The preview could not run.</strong>
              {failureText(backtest.error).map((text) => (
                <div key={text}>{text}</div>
              ))}
            </Alert>
          ) : (
            result && (
              <>
                {result.truncated && result.scanned === 0 ? (
                  <Alert severity="warning" aria-live="polite">
                    This search matches too broadly to preview: not even the newest stored posts could be checked in the
                    time a preview may take. Narrow it with more specific keywords or filters.
                  </Alert>
                ) : (
                  <Box aria-live="polite">
                    <Typography variant="h6" component="p">
                      {countOf(result.count, 'match', 'matches')} in the last {days} days
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {result.expected.days > 0
                        ? `Expect ${expectation(result.expected)} once saved, as in the last ${countOf(result.expected.days, 'day', 'days')} of stored posts.`
                        : `Expect ${ratePerDay(result.expectedPerDay)} once saved, at the rate of the stored posts.`}
                    </Typography>
                  </Box>
                )}

                {result.truncated && result.scanned > 0 && (
                  <Alert severity="warning">
                    This search matches too broadly to check every stored post: only posts since{' '}
                    {formatDateTime(new Date(result.coveredFrom * 1000))} were checked, and the rate is taken from them.
                    Narrow it with more specific keywords or filters.
                  </Alert>
                )}
                {!(result.truncated && result.scanned === 0) && <DayBars days={result.perDay} />}
                {result.truncated && result.scanned === 0 ? null : result.count === 0 ? (
                  <Typography color="text.secondary">
                    No stored post of the last {days} days matches. The search may stay quiet: broaden the keywords or
                    add data sources, or save it to collect new posts as they arrive.
                  </Typography>
                ) : (
                  <Stack spacing={1} component="section" aria-label="Matching posts">
                    <Typography variant="subtitle2" component="h2">
                      {result.samples.length < result.count
                        ? `The newest ${result.samples.length} of ${countOf(result.count, 'match', 'matches')}`
                        : 'The matching posts, newest first'}
                    </Typography>
                    {result.samples.map((post) => (
                      <SamplePost
                        key={post.id}
                        post={post}
                        provider={providers.find((p) => p.name === post.provider)}
                        terms={terms}
                      />
                    ))}
                  </Stack>
                )}
              </>
            )
          )}
          <TextField
            select
            size="small"
            label="Fill the inbox with stored posts of"
            value={backfillDays}
            onChange={(event) => onBackfillDays(Number(event.target.value))}
            helperText="Saving fills the inbox once with these posts; no alert is sent for them."
            sx={{ maxWidth: 360 }}
          >
            {BACKFILL_CHOICES.map((n) => (
              <MenuItem key={n} value={n}>
                {backfillLabel(n, result?.backfill ?? [])}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1 }}>
        <Button onClick={onBack}>Edit the search</Button>
        <Button variant="contained" onClick={onSubmit} disabled={submitting}>
          {editing ? 'Save' : 'Create'}
        </Button>
      </DialogActions>
    </>
  );
}
