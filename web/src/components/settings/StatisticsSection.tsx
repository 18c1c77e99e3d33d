import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import type { MonthlyCounts, Product } from '../../api/members';
import { useMemberCountsQuery, useOrganizationCountsQuery } from '../../hooks/useMembersQueries';

// ECharts stays in its own chunk until a chart is shown.
const OrganizationChart = lazy(() =>
  import('./StatisticsCharts').then((module) => ({ default: module.OrganizationChart })),
);
const MembersChart = lazy(() => import('./StatisticsCharts').then((module) => ({ default: module.MembersChart })));

type Metric = keyof MonthlyCounts;

const metrics: { value: Metric; label: string }[] = [
  { value: 'searches', label: 'Searches' },
  { value: 'matches', label: 'Matches' },
  { value: 'exports', label: 'Exports' },
];

const explanation: Record<Product, Record<Metric, string>> = {
  beacon: {
    searches: 'Beacon keyword searches run.',
    matches: 'Posts the Beacon searches found.',
    exports: 'Exports of Beacon results.',
  },
  locate: {
    searches: 'Locate searches run.',
    matches: 'Matches your saved searches collected, counted for each search’s owner.',
    exports: 'Exports of matches.',
  },
};

const chartSkeleton = <Skeleton variant="rounded" height={220} />;

/** The organization's monthly usage of Beacon and Locate, in total and by member (owners and admins). */
export function StatisticsSection({ organizationId }: { organizationId: number }) {
  const [product, setProduct] = useState<Product>('beacon');
  const [metric, setMetric] = useState<Metric>('searches');
  const organization = useOrganizationCountsQuery(organizationId, product);
  const members = useMemberCountsQuery(organizationId, product);

  return (
    <Stack spacing={2.5}>
      <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap' }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={product}
          onChange={(_event, value: Product | null) => value && setProduct(value)}
          aria-label="Product"
        >
          <ToggleButton value="beacon">Beacon</ToggleButton>
          <ToggleButton value="locate">Locate</ToggleButton>
        </ToggleButtonGroup>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={metric}
          onChange={(_event, value: Metric | null) => value && setMetric(value)}
          aria-label="Figure"
        >
          {metrics.map((m) => (
            <ToggleButton key={m.value} value={m.value}>
              {m.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {explanation[product][metric]} Months are in UTC.
      </Typography>
      <Box>
        <Typography variant="h4" component="h3" sx={{ mb: 1 }}>
          Organization
        </Typography>
        {organization.isError ? (
          <Alert severity="error">The statistics could not be loaded: {organization.error.message}</Alert>
        ) : organization.data ? (
          <Suspense fallback={chartSkeleton}>
            <OrganizationChart report={organization.data} metric={metric} />
          </Suspense>
        ) : (
          chartSkeleton
        )}
      </Box>
      <Box>
        <Typography variant="h4" component="h3" sx={{ mb: 1 }}>
          By member
        </Typography>
        {members.isError ? (
          <Alert severity="error">The statistics could not be loaded: {members.error.message}</Alert>
        ) : members.data ? (
          <Suspense fallback={chartSkeleton}>
            <MembersChart report={members.data} metric={metric} />
          </Suspense>
        ) : (
          chartSkeleton
        )}
      </Box>
    </Stack>
  );
}
