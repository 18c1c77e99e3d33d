import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { Spike } from '../../api/spikes';
import { useNow } from '../../hooks/useNow';
import { useSearchSpikesQuery } from '../../hooks/useSpikeQueries';
import { EChart } from '../dashboard/EChart';
import { LoadError } from '../LoadError';
import { SpikeList } from './SpikeList';
import { spikeCounts, spikeSubject, spikeWhen } from './spikeText';

const HOUR = 3600;

/** The last seven days hour by hour, each spike marked where it happened: its posts against the
 * count its hours usually bring. */
export function SpikeTimeline({ spikes, now }: { spikes: Spike[]; now: number }) {
  const theme = useTheme();
  const last = Math.floor(now / HOUR);
  const hours = Array.from({ length: 7 * 24 }, (_, i) => last - 7 * 24 + 1 + i);
  const at = (h: number) => spikes.filter((s) => Math.floor(s.start / HOUR) <= h && h <= Math.floor((s.end - 1) / HOUR));
  const label = (h: number) =>
    new Date(h * HOUR * 1000).toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', timeZone: 'UTC' });
  const option = {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 36, right: 8, top: 8, bottom: 28 },
    xAxis: {
      type: 'category',
      data: hours.map(label),
      axisLabel: { color: theme.palette.text.secondary, interval: 23 },
      axisLine: { lineStyle: { color: theme.palette.divider } },
    },
    yAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { color: theme.palette.divider } } },
    series: [
      {
        type: 'bar',
        name: 'Spike posts',
        barGap: '-100%',
        itemStyle: { color: theme.palette.error.main },
        data: hours.map((h) => at(h).reduce((n, s) => n + s.count / Math.max(1, Math.ceil((s.end - s.start) / HOUR)), 0)),
      },
      {
        type: 'bar',
        name: 'Usually',
        itemStyle: { color: theme.palette.action.disabled },
        data: hours.map((h) => at(h).reduce((n, s) => n + s.expected / Math.max(1, Math.ceil((s.end - s.start) / HOUR)), 0)),
      },
    ],
  };
  const description = spikes.map((s) => `${spikeWhen(s.start, s.end)}: ${spikeSubject(s.kind, s.name)}, ${spikeCounts(s.count, s.expected)}`);
  return <EChart option={option} height={160} label={`Spikes over the last seven days: ${description.join('; ') || 'none'}`} />;
}

/** A saved search's spikes of the last seven days, on its page. */
export function SearchSpikes({ searchId }: { searchId: number }) {
  const query = useSearchSpikesQuery(searchId);
  const now = useNow(60_000);
  return (
    <Paper component="section" aria-label="Spikes" variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        Spikes (7 days, UTC)
      </Typography>
      {query.isPending ? (
        <Skeleton variant="rounded" height={120} aria-label="Loading the spikes" />
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} retryLabel="Try Again">
          The spikes could not be loaded.
        </LoadError>
      ) : query.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No spikes in the last seven days: this search&apos;s matches kept to their usual rhythm. A spike shows here
          when an hour brings far more posts than that hour of the week usually does.
        </Typography>
      ) : (
        <Stack spacing={1}>
          <SpikeTimeline spikes={query.data} now={now.getTime() / 1000} />
          <SpikeList
            spikes={[...query.data].reverse().map((s) => ({
              ...s,
              sample: s.samples[0] ? `${s.samples[0].author || s.samples[0].provider}: ${s.samples[0].text}` : undefined,
            }))}
          />
        </Stack>
      )}
    </Paper>
  );
}
