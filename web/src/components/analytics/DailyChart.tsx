import { useTheme } from '@mui/material/styles';
import type { Analytics } from '../../api/analytics';
import { formatCount } from '../../lib/countFormat';
import { EChart } from '../dashboard/EChart';

/** A week reads by weekday ("Mon 3"); a longer range by date ("3 Nov"), which says the month. */
function dayLabel(day: string, span: number): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    ...(span <= 7 ? { weekday: 'short' } : { month: 'short' }),
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** Results per UTC day of the searched range, as columns. */
export function DailyChart({ daily, estimate }: { daily: Analytics['daily']; estimate: boolean }) {
  const theme = useTheme();
  const option = {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 8, top: 16, bottom: 4, containLabel: true },
    xAxis: {
      type: 'category',
      data: daily.map((d) => dayLabel(d.date, daily.length)),
      axisLine: { lineStyle: { color: theme.palette.divider } },
      axisTick: { show: false },
      // Every label while they fit; over a longer range ECharts skips days evenly, and hides any
      // label that would still touch its neighbour, so they never overlap.
      axisLabel: { color: theme.palette.text.secondary, interval: 'auto', hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      splitLine: { lineStyle: { color: theme.palette.divider } },
      axisLabel: { color: theme.palette.text.secondary, formatter: (v: number) => formatCount(v) },
    },
    series: [
      {
        type: 'bar',
        name: estimate ? 'Results (estimated)' : 'Results',
        data: daily.map((d) => d.count),
        barMaxWidth: 32,
        itemStyle: { color: theme.palette.primary.main, borderRadius: [3, 3, 0, 0] },
      },
    ],
  };
  return (
    <EChart
      option={option}
      height={200}
      label={`Results per day${estimate ? ', estimated' : ''}: ${daily.map((d) => `${d.date} ${d.count}`).join(', ')}`}
    />
  );
}
