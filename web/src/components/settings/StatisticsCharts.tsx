import { useTheme } from '@mui/material/styles';
import type { MemberCounts, MonthlyCounts, OrganizationCounts } from '../../api/members';
import { formatCount } from '../../lib/countFormat';
import { EChart } from '../dashboard/EChart';

type Metric = keyof MonthlyCounts;

const metricLabel: Record<Metric, string> = { searches: 'Searches', matches: 'Matches', exports: 'Exports' };

/** "2026-11" as "Nov 2026". */
function monthName(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-GB', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function useAxes(months: string[]) {
  const theme = useTheme();
  return {
    xAxis: {
      type: 'category',
      // Month over year on two lines, so all twelve fit.
      data: months.map((m) => monthName(m).replace(' ', '\n')),
      axisLine: { lineStyle: { color: theme.palette.divider } },
      axisTick: { show: false },
      axisLabel: { color: theme.palette.text.secondary, interval: 0, lineHeight: 16, margin: 10 },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      splitLine: { lineStyle: { color: theme.palette.divider } },
      axisLabel: { color: theme.palette.text.secondary, formatter: (v: number) => formatCount(v) },
    },
  };
}

/** The organization's figure of each of the last twelve months, as columns. */
export function OrganizationChart({ report, metric }: { report: OrganizationCounts; metric: Metric }) {
  const theme = useTheme();
  const axes = useAxes(report.months);
  const values = report.counts[metric];
  const option = {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 40, right: 8, top: 16, bottom: 44 },
    ...axes,
    series: [
      {
        type: 'bar',
        name: metricLabel[metric],
        data: values,
        barMaxWidth: 32,
        itemStyle: { color: theme.palette.primary.main, borderRadius: [3, 3, 0, 0] },
      },
    ],
  };
  return (
    <EChart
      option={option}
      height={220}
      label={`${metricLabel[metric]} of the organization per month: ${report.months
        .map((m, i) => `${monthName(m)} ${values[i]}`)
        .join(', ')}`}
    />
  );
}

/** Each member's figure per month, stacked, so the columns add up to the organization's. */
export function MembersChart({ report, metric }: { report: MemberCounts; metric: Metric }) {
  const axes = useAxes(report.months);
  const theme = useTheme();
  const option = {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { bottom: 0, textStyle: { color: theme.palette.text.secondary } },
    grid: { left: 40, right: 8, top: 16, bottom: 80 },
    ...axes,
    series: report.members.map((m) => ({
      type: 'bar',
      stack: 'members',
      name: m.name || m.email,
      data: m[metric],
      barMaxWidth: 32,
    })),
  };
  const spoken = report.members
    .map((m) => `${m.name || m.email}: ${m[metric].reduce((sum, n) => sum + n, 0)}`)
    .join(', ');
  return (
    <EChart
      option={option}
      height={260}
      label={`${metricLabel[metric]} per member over the last ${report.months.length} months: ${spoken}`}
    />
  );
}
