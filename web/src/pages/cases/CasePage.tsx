import Download from '@mui/icons-material/Download';
import WorkOutlined from '@mui/icons-material/WorkOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { caseExportUrl } from '../../api/cases';
import { ApiError } from '../../api/transport';
import { CaseComments } from '../../components/cases/CaseComments';
import { CaseDetails } from '../../components/cases/CaseDetails';
import { CaseItemCard } from '../../components/cases/CaseItemCard';
import { CaseMap } from '../../components/cases/CaseMap';
import { CaseStatusChip } from '../../components/cases/CaseStatusChip';
import { CaseTimeline } from '../../components/cases/CaseTimeline';
import { EmptyState } from '../../components/EmptyState';
import { CaptureUrlButton } from '../../components/evidence/CaptureUrlDialog';
import { LoadError } from '../../components/LoadError';
import { useCaseQuery, useDeleteCase } from '../../hooks/useCaseQueries';
import { useConfirm } from '../../hooks/useConfirm';
import { useLiveUpdates } from '../../hooks/useLiveUpdates';
import { useOrganizationQuery } from '../../hooks/useOrganizationQuery';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** One case: its items with their notes, places, comments, details and timeline. */
export function CasePage() {
  useLiveUpdates(true);
  const id = Number(useParams().id);
  const query = useCaseQuery(id);
  const organization = useOrganizationQuery();
  const remove = useDeleteCase();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const members = organization.data?.users ?? [];
  const wrap = (content: ReactNode) => (
    <Box sx={{ maxWidth: 1300, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>{content}</Box>
  );

  if (query.isPending) {
    return wrap(
      <Stack spacing={2} role="status" aria-label="Loading the case">
        <Skeleton variant="text" width="40%" height={48} />
        <Skeleton variant="rounded" height={200} />
      </Stack>,
    );
  }
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return wrap(
        <EmptyState
          icon={WorkOutlined}
          title="This case was not found"
          actions={
            <Button component={RouterLink} to="/cases" variant="contained">
              Back to the cases
            </Button>
          }
        >
          It was deleted, or it is not shared with you.
        </EmptyState>,
      );
    }
    return wrap(<LoadError onRetry={() => void query.refetch()}>The case could not be loaded.</LoadError>);
  }
  const c = query.data;
  const onDelete = () =>
    confirm({
      title: 'Delete this case?',
      text: 'Its items, notes, timeline and comments are deleted for everyone. This cannot be undone.',
      icon: 'warning',
      acceptLabel: 'Delete',
      onAccept: () => remove.mutate(c.id, { onSuccess: () => void navigate('/cases') }),
    });

  return wrap(
    <>
      <Link component={RouterLink} to="/cases" variant="body2">
        ← All cases
      </Link>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, mt: 1, mb: 1 }}>
        <Typography variant="h2" component="h1" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
          {c.name}
        </Typography>
        <CaseStatusChip status={c.status} />
        <CaptureUrlButton intoCase={c.canEdit && c.status !== 'closed' ? { id: c.id, name: c.name } : undefined} />
        <Button variant="contained" startIcon={<Download />} href={caseExportUrl(c.id)} download>
          Export case
        </Button>
        {c.canDelete && (
          <Button color="error" onClick={onDelete}>
            Delete
          </Button>
        )}
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 3, whiteSpace: 'pre-wrap' }}>
        {c.description || 'No description.'} · Owned by {c.owner.name || c.owner.email}
        {c.canEdit ? '' : ' · You can view this case and comment on it.'}
      </Typography>
      <Box
        sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(300px, 1fr)' } }}
      >
        <Stack spacing={3}>
          <Section title={`Items (${c.items.length})`}>
            {c.items.length === 0 ? (
              <Typography color="text.secondary">
                No items yet. Use “Add to case” on a post in Monitor, Beacon or a story to add it here with a note, or
                capture a web page into the case.
              </Typography>
            ) : (
              <Stack spacing={2}>
                {c.items.map((item, i) => (
                  <CaseItemCard key={item.id} caseId={c.id} item={item} number={i + 1} canEdit={c.canEdit} />
                ))}
              </Stack>
            )}
          </Section>
          <Section title="Comments">
            <CaseComments caseId={c.id} comments={c.comments} members={members} />
          </Section>
        </Stack>
        <Stack spacing={3}>
          <Section title="Details">
            <CaseDetails value={c} members={members} />
          </Section>
          <Section title="Places">
            {c.places.length === 0 ? (
              <Typography color="text.secondary">No item is at or mentions a known place.</Typography>
            ) : (
              <>
                <CaseMap places={c.places} />
                <Typography variant="body2" component="ul" sx={{ pl: 2.5, mb: 0 }} aria-label="Places of the items">
                  {c.places.map((p) => (
                    <li key={`${p.name}-${p.lat}-${p.lon}`}>
                      {p.name || 'Unnamed place'}
                      {p.countryCode && ` (${p.countryCode})`} · item {p.items.join(', ')}
                    </li>
                  ))}
                </Typography>
              </>
            )}
          </Section>
          <Section title="Timeline">
            <CaseTimeline events={c.timeline} />
          </Section>
        </Stack>
      </Box>
    </>,
  );
}
