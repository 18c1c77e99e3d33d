import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import FilterAltOutlined from '@mui/icons-material/FilterAltOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

export function FilterEditPage() {
  const { id } = useParams();
  return (
    <>
      <PageHeader title="Filter list" subtitle={`List ${id ?? ''}`} />
      <EmptyState
        icon={FilterAltOutlined}
        title="This filter list cannot be opened yet"
        actions={
          <Button component={RouterLink} to=".." relative="path" startIcon={<ArrowBackOutlined />}>
            Back to search filters
          </Button>
        }
      >
        Editing a filter list and its sharing arrives with the Monitor back end.
      </EmptyState>
    </>
  );
}
