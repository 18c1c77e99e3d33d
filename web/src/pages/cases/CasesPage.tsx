import WorkOutlined from '@mui/icons-material/WorkOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { CASE_STATUS_LABELS, CASE_STATUSES, NO_CASE_FILTER, type CaseFilter, type CaseSummary } from '../../api/cases';
import { CaseStatusChip } from '../../components/cases/CaseStatusChip';
import { NewCaseDialog } from '../../components/cases/NewCaseDialog';
import { CaptureUrlButton } from '../../components/evidence/CaptureUrlDialog';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { useCasesQuery } from '../../hooks/useCaseQueries';
import { useLiveUpdates } from '../../hooks/useLiveUpdates';
import { useOrganizationQuery } from '../../hooks/useOrganizationQuery';
import { useSettledValue } from '../../hooks/useSettledValue';

/** The organization's cases the user can see, with filters, and the way to start one. */
export function CasesPage() {
  useLiveUpdates(true);
  const navigate = useNavigate();
  const [filter, setFilter] = useState<CaseFilter>(NO_CASE_FILTER);
  const [creating, setCreating] = useState(false);
  // Typing in the search and tag boxes asks the server once the typing stops.
  const settled = useSettledValue(filter, 300);
  const cases = useCasesQuery(settled);
  const organization = useOrganizationQuery();
  const set = (patch: Partial<CaseFilter>) => setFilter((f) => ({ ...f, ...patch }));
  const filtered = Object.values(filter).some((v) => v !== '');

  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
      <PageHeader
        title="Cases"
        subtitle="Investigations: posts, stories and evidence with your notes, a timeline and your colleagues' comments."
        actions={
          <>
            <CaptureUrlButton />
            <Button variant="contained" onClick={() => setCreating(true)} sx={{ whiteSpace: 'nowrap' }}>
              New case
            </Button>
          </>
        }
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }} role="search" aria-label="Filter cases">
        <TextField
          label="Search"
          size="small"
          value={filter.q}
          onChange={(e) => set({ q: e.target.value })}
          sx={{ flex: 2 }}
        />
        <TextField
          select
          label="Status"
          size="small"
          value={filter.status}
          onChange={(e) => set({ status: e.target.value as CaseFilter['status'] })}
          sx={{ minWidth: 150 }}
        >
          <MenuItem value="">Any status</MenuItem>
          {CASE_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {CASE_STATUS_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Assignee"
          size="small"
          value={filter.assignee}
          onChange={(e) => set({ assignee: e.target.value })}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">Anyone</MenuItem>
          <MenuItem value="me">Me</MenuItem>
          {(organization.data?.users ?? []).map((u) => (
            <MenuItem key={u.id} value={String(u.id)}>
              {u.name || u.email}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Tag" size="small" value={filter.tag} onChange={(e) => set({ tag: e.target.value })} />
      </Stack>
      {cases.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading cases">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      )}
      {cases.isError && <LoadError onRetry={() => void cases.refetch()}>The cases could not be loaded.</LoadError>}
      {cases.data?.length === 0 &&
        (filtered ? (
          <EmptyState icon={WorkOutlined} title="No case matches these filters">
            Clear a filter to see more cases.
          </EmptyState>
        ) : (
          <EmptyState
            icon={WorkOutlined}
            title="No cases yet"
            actions={
              <Button variant="contained" onClick={() => setCreating(true)}>
                New case
              </Button>
            }
          >
            Start a case, then add posts to it with “Add to case” on any post in Monitor, Beacon or a story.
          </EmptyState>
        ))}
      {cases.data && cases.data.length > 0 && <CaseTable cases={cases.data} />}
      <NewCaseDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          void navigate(`/cases/${id}`);
        }}
      />
    </Box>
  );
}

function CaseTable({ cases }: { cases: CaseSummary[] }) {
  return (
    <Table aria-label="Cases" size="small">
      <TableHead>
        <TableRow>
          <TableCell>Name</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Assignees</TableCell>
          <TableCell>Tags</TableCell>
          <TableCell align="right">Items</TableCell>
          <TableCell>Changed</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {cases.map((c) => (
          <TableRow key={c.id} hover>
            <TableCell>
              <Link component={RouterLink} to={`/cases/${c.id}`} sx={{ fontWeight: 600 }}>
                {c.name}
              </Link>
            </TableCell>
            <TableCell>
              <CaseStatusChip status={c.status} />
            </TableCell>
            <TableCell>{c.assignees.map((a) => a.name || a.email).join(', ') || '—'}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
                {c.tags.map((t) => (
                  <Chip key={t} size="small" label={t} />
                ))}
              </Stack>
            </TableCell>
            <TableCell align="right">{c.itemCount}</TableCell>
            <TableCell>
              <RelativeTime date={new Date(c.updatedAt)} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
