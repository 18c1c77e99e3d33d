import { useTheme } from '@mui/material/styles';
import type { Dashboard } from '../../api/dashboard';
import { lastDays, WEEKDAYS } from '../../lib/chartDays';
import { formatCount } from '../../lib/countFormat';
import { EChart } from './EChart';

function shortDate(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

function useAxisColours() {
  const theme = useTheme();
  return { line: theme.palette.divider, text: theme.palette.text.secondary };
}

/** Results by UTC weekday and hour, darker where there are more. */
export function HeatmapChart({ cells }: { cells: Dashboard['heatmap'] }) {
  const theme = useTheme();
  const axis = useAxisColours();
  const max = Math.max(1, ...cells.map((c) => c.count));
  const counts = new Map(cells.map((c) => [`${c.weekday}:${c.hour}`, c.count]));
  const option = {
    tooltip: {
      formatter: (p: { value: [number, number, number] }) =>
        `${WEEKDAYS[p.value[1]]} ${p.value[0]}:00 UTC: ${formatCount(p.value[2])}`,
    },
    grid: { left: 40, right: 8, top: 8, bottom: 24 },
    xAxis: {
      type: 'category',
      data: Array.from({ length: 24 }, (_, h) => String(h)),
      splitArea: { show: false },
      axisLine: { lineStyle: { color: axis.line } },
      axisLabel: { color: axis.text, interval: 2 },
    },
    yAxis: {
      type: 'category',
      data: WEEKDAYS.map((d) => d.slice(0, 3)),
      inverse: true,
      axisLine: { lineStyle: { color: axis.line } },
      axisLabel: { color: axis.text },
    },
    visualMap: {
      show: false,
      min: 0,
      max,
      inRange: { color: [theme.palette.action.hover, theme.palette.primary.main] },
    },
    series: [
      {
        type: 'heatmap',
        // Every hour of the week, so the quiet ones show as the grid's pale cells.
        data: WEEKDAYS.flatMap((_, weekday) =>
          Array.from({ length: 24 }, (_, hour) => [hour, weekday, counts.get(`${weekday}:${hour}`) ?? 0]),
        ),
        itemStyle: { borderColor: theme.palette.background.paper, borderWidth: 2, borderRadius: 2 },
      },
    ],
  };
  return (
    <EChart
      option={option}
      height={230}
      label={`Results by weekday and hour (UTC): ${cells.map((c) => `${WEEKDAYS[c.weekday]} ${c.hour}:00 ${c.count}`).join(', ')}`}
    />
  );
}

/** Results per UTC day over the last 30 days, stacked by saved search; a bar opens its search's inbox. */
export function TimelineChart({
  points,
  name,
  colour,
  onOpen,
}: {
  points: Dashboard['timeline'];
  name: (id: number) => string;
  colour: (id: number) => string;
  onOpen: (searchId: number) => void;
}) {
  const axis = useAxisColours();
  const days = lastDays(30);
  const searches = [...new Set(points.map((p) => p.monitorSearchId))].sort((a, b) => a - b);
  const count = new Map(points.map((p) => [`${p.date}:${p.monitorSearchId}`, p.count]));
  const option = {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 40, right: 8, top: 8, bottom: 28 },
    xAxis: {
      type: 'category',
      data: days.map(shortDate),
      axisLine: { lineStyle: { color: axis.line } },
      axisLabel: { color: axis.text, interval: 6 },
      axisTick: { alignWithLabel: true },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      splitLine: { lineStyle: { color: axis.line } },
      axisLabel: { color: axis.text },
    },
    series: searches.map((id) => ({
      type: 'bar',
      name: name(id),
      stack: 'results',
      barMaxWidth: 18,
      itemStyle: { color: colour(id) },
      data: days.map((d) => count.get(`${d}:${id}`) ?? 0),
    })),
  };
  const label = `Results per day over the last 30 days, stacked by saved search: ${points
    .map((p) => `${p.date}, ${name(p.monitorSearchId)}: ${p.count}`)
    .join('; ')}`;
  return (
    <EChart
      option={option}
      height={240}
      label={label}
      onClick={({ seriesIndex }) => {
        const id = searches[seriesIndex];
        if (id !== undefined) onOpen(id);
      }}
    />
  );
}

/** Ranked counts as horizontal bars, largest on top. */
export function CountBarsChart({
  rows,
  label,
  onOpen,
}: {
  rows: { label: string; count: number }[];
  label: string;
  /** What a click on a bar opens, by the bar's row. */
  onOpen?: (row: number) => void;
}) {
  const theme = useTheme();
  const axis = useAxisColours();
  const option = {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 48, top: 4, bottom: 4, containLabel: true },
    xAxis: { type: 'value', show: false },
    yAxis: {
      type: 'category',
      inverse: true,
      data: rows.map((r) => r.label),
      axisLine: { show: false },
      axisTick: { show: false },
      axisLabel: { color: axis.text, width: 120, overflow: 'truncate' },
    },
    series: [
      {
        type: 'bar',
        data: rows.map((r) => r.count),
        barMaxWidth: 14,
        itemStyle: { color: theme.palette.primary.main, borderRadius: [0, 3, 3, 0] },
        label: {
          show: true,
          position: 'right',
          color: axis.text,
          formatter: (p: { value: number }) => formatCount(p.value),
        },
      },
    ],
  };
  return (
    <EChart
      option={option}
      height={Math.max(80, rows.length * 26 + 16)}
      label={`${label}: ${rows.map((r) => `${r.label} ${r.count}`).join(', ')}`}
      onClick={onOpen && (({ dataIndex }) => onOpen(dataIndex))}
    />
  );
}
