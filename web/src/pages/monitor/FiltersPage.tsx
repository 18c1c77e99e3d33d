import FilterAltOutlined from '@mui/icons-material/FilterAltOutlined';
import PlaylistAddOutlined from '@mui/icons-material/PlaylistAddOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

export function FiltersPage() {
  return (
    <>
      <PageHeader
        title="Search filters"
        subtitle="Keyword, author and object-detection lists that narrow what saved searches collect."
        actions={
          <Button component={RouterLink} to="new" variant="contained" startIcon={<PlaylistAddOutlined />}>
            New filter list
          </Button>
        }
      />
      <EmptyState icon={FilterAltOutlined} title="No filter lists yet">
        Filter lists arrive with the Monitor back end. Once they do, the lists you own or that are shared with you
        appear here, ready to attach to saved searches.
      </EmptyState>
    </>
  );
}
