import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import DashboardCustomizeOutlined from '@mui/icons-material/DashboardCustomizeOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

export function CustomizePage() {
  return (
    <>
      <PageHeader title="Customize dashboard" subtitle="Choose the widgets your dashboard shows and their order." />
      <EmptyState
        icon={DashboardCustomizeOutlined}
        title="Nothing to arrange yet"
        actions={
          <Button component={RouterLink} to="../dashboard" startIcon={<ArrowBackOutlined />}>
            Back to the dashboard
          </Button>
        }
      >
        Here you will add, remove and rearrange rows of widgets, then save or discard your changes. The editor arrives
        together with the dashboard widgets.
      </EmptyState>
    </>
  );
}
