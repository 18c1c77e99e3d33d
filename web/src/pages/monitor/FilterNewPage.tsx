import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useEffect } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { FilterListForm } from '../../components/filters/FilterListForm';
import { PageHeader } from '../../components/PageHeader';
import { useEmbedded } from '../../hooks/useEmbedded';
import { useSnackbar } from '../../hooks/useSnackbar';
import { postToBuilder } from '../../lib/filterFrame';

/**
 * filters/new: a name, a kind and the entries of a new filter list. Inside the search builder's
 * frame (?embedded=1) it tells the builder when it has loaded, when to close and what it created.
 */
export function FilterNewPage() {
  const embedded = useEmbedded();
  const navigate = useNavigate();
  const snackbar = useSnackbar();

  useEffect(() => {
    if (embedded) postToBuilder({ type: 'loaded' });
  }, [embedded]);

  const leave = () => {
    if (embedded) postToBuilder({ type: 'closeModal' });
    else void navigate('..', { relative: 'path' });
  };

  return (
    <Box sx={embedded ? { p: 2 } : undefined}>
      {!embedded && (
        <>
          <Link component={RouterLink} to=".." relative="path" sx={{ display: 'inline-flex', gap: 0.5, mb: 2 }}>
            <ArrowBackOutlined fontSize="small" /> Back to search filters
          </Link>
          <PageHeader
            title="New filter list"
            subtitle="A name, a kind and the keywords, authors or objects to filter by."
          />
        </>
      )}
      <FilterListForm
        onCancel={leave}
        onCreated={({ data: created, message }) => {
          if (embedded) {
            postToBuilder({ type: 'createdFilterList', id: created.id });
          } else {
            snackbar.show({
              color: 'success',
              text: message ? `Filter list created. ${message}` : 'Filter list created',
            });
            void navigate(`../${created.id}`, { relative: 'path' });
          }
        }}
      />
    </Box>
  );
}
