import { useTheme } from '@mui/material/styles';
import { EChart } from '../dashboard/EChart';

/** Posts per hour of the day (UTC), as columns. */
export function HoursChart({ hours, label }: { hours: number[]; label: string }) {
  const theme = useTheme();
  const option = {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 8, top: 16, bottom: 4, containLabel: true },
    xAxis: {
      type: 'category',
      data: hours.map((_, h) => `${String(h).padStart(2, '0')}:00`),
      axisLine: { lineStyle: { color: theme.palette.divider } },
      axisTick: { show: false },
      axisLabel: { color: theme.palette.text.secondary, interval: 2 },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      splitLine: { lineStyle: { color: theme.palette.divider } },
      axisLabel: { color: theme.palette.text.secondary },
    },
    series: [
      {
        type: 'bar',
        name: 'Posts',
        data: hours,
        itemStyle: { color: theme.palette.primary.main, borderRadius: [3, 3, 0, 0] },
      },
    ],
  };
  return <EChart option={option} height={200} label={`${label}: ${hours.map((n, h) => `${h}:00 ${n}`).join(', ')}`} />;
}
