import DashboardCustomizeOutlined from '@mui/icons-material/DashboardCustomizeOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SearchTextFilter } from '../../components/SearchTextFilter';

export function DashboardPage() {
  return (
    <>
      <PageHeader
        title="Dashboard"
        subtitle="An overview of what your saved searches find."
        actions={
          <Button
            component={RouterLink}
            to="../customize"
            variant="outlined"
            startIcon={<DashboardCustomizeOutlined />}
          >
            Customize
          </Button>
        }
      />
      <SearchTextFilter />
      <EmptyState icon={InsightsOutlined} title="No saved searches yet">
        Widgets for result counts, top authors, data sources, mentioned locations and threat scores fill this dashboard
        once your saved searches run. Saved searches arrive with the Monitor back end.
      </EmptyState>
    </>
  );
}
