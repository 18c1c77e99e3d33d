import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  AUDIT_ACTIONS,
  AUDIT_MODELS,
  type AuditActor,
  type AuditFilters,
  type AuditRow,
  auditLogsCsvUrl,
} from '../../api/audit';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { AuditValue } from '../../components/tenant/AuditValue';
import { useAuditLogsQuery } from '../../hooks/useAuditLogsQuery';
import { useOrganizationQuery } from '../../hooks/useOrganizationQuery';
import { formatDateTime } from '../../lib/dateRange';

const label = (name: string) => name.replaceAll('_', ' ');

function readFilters(params: URLSearchParams): AuditFilters {
  const userId = Number(params.get('userId'));
  return {
    model: params.get('model') ?? undefined,
    action: params.get('action') ?? undefined,
    userId: Number.isInteger(userId) && userId > 0 ? userId : undefined,
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
  };
}

/** Tenant portal: every change made in the tenant, newest first, filtered, paged and downloadable. */
export function AuditLogsPage() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const logs = useAuditLogsQuery(filters, page);
  const organization = useOrganizationQuery();

  // Filtering starts again from the first page.
  const setFilter = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  const setPage = (value: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('page', String(value));
      return next;
    });

  // Actors to choose from: the organization's members and anyone on this page.
  const actors = useMemo(() => {
    const byId = new Map<number, AuditActor>();
    for (const m of organization.data?.users ?? []) byId.set(m.id, { id: m.id, name: m.name, email: m.email });
    for (const row of logs.data?.data ?? []) if (row.actor) byId.set(row.actor.id, row.actor);
    // A person from a shared link who is on neither list is still the filter in force.
    if (filters.userId && !byId.has(filters.userId)) {
      byId.set(filters.userId, { id: filters.userId, name: `User ${filters.userId}`, email: '' });
    }
    return [...byId.values()].sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email));
  }, [organization.data, logs.data, filters.userId]);

  const filtered = Object.values(filters).some((v) => v !== undefined);
  const meta = logs.data?.meta;

  return (
    <Box>
      <PageHeader
        title="Audit logs"
        subtitle="Every change made in your tenant, newest first. Entries can never be edited or removed."
        actions={
          <Button
            variant="outlined"
            component="a"
            href={auditLogsCsvUrl(filters)}
            download
            startIcon={<DownloadOutlined />}
          >
            Download CSV
          </Button>
        }
      />
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={1.5}
        sx={{ mb: 2 }}
        component="form"
        role="search"
        aria-label="Filter the audit logs"
        onSubmit={(event) => event.preventDefault()}
      >
        <TextField
          select
          size="small"
          label="Model"
          value={filters.model ?? ''}
          onChange={(event) => setFilter('model', event.target.value)}
          sx={{ minWidth: 170 }}
        >
          <MenuItem value="">All models</MenuItem>
          {AUDIT_MODELS.map((m) => (
            <MenuItem key={m} value={m}>
              {label(m)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Action"
          value={filters.action ?? ''}
          onChange={(event) => setFilter('action', event.target.value)}
          sx={{ minWidth: 150 }}
        >
          <MenuItem value="">All actions</MenuItem>
          {AUDIT_ACTIONS.map((a) => (
            <MenuItem key={a} value={a}>
              {a}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Actor"
          value={filters.userId ?? ''}
          onChange={(event) => setFilter('userId', String(event.target.value))}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">Everyone</MenuItem>
          {actors.map((a) => (
            <MenuItem key={a.id} value={a.id}>
              {a.name || a.email}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="date"
          label="From"
          value={filters.from ?? ''}
          onChange={(event) => setFilter('from', event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label="To"
          value={filters.to ?? ''}
          onChange={(event) => setFilter('to', event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: filters.from } }}
        />
        {filtered && <Button onClick={() => setParams(new URLSearchParams(), { replace: true })}>Clear filters</Button>}
      </Stack>

      {logs.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading the audit logs">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      )}
      {logs.isError && (
        <LoadError onRetry={() => void logs.refetch()}>
          {logs.error.message || 'The audit logs could not be loaded.'}
        </LoadError>
      )}
      {logs.data?.data.length === 0 && (
        <EmptyState icon={HistoryOutlined} title={filtered ? 'No entries match' : 'No changes yet'}>
          {filtered
            ? 'Nothing in the log matches these filters. Widen the dates or clear the filters.'
            : 'Changes to saved searches, groups, sharing, filter lists, configurations, alerts and settings appear here as people make them.'}
        </EmptyState>
      )}
      {logs.data && logs.data.data.length > 0 && meta && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} aria-live="polite">
            {meta.total === 1 ? '1 entry' : `${meta.total.toLocaleString()} entries`}
            {meta.last_page > 1 && `, page ${meta.current_page} of ${meta.last_page}`}
          </Typography>
          <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
            <Table aria-label="Audit logs" size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Date</TableCell>
                  <TableCell>Model</TableCell>
                  <TableCell>Action</TableCell>
                  <TableCell>Actor</TableCell>
                  <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>Organization</TableCell>
                  <TableCell>Previous value</TableCell>
                  <TableCell>New value</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {logs.data.data.map((row) => (
                  <AuditLogRow key={row.id} row={row} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {meta.last_page > 1 && (
            <Pagination
              sx={{ mt: 2, display: 'flex', justifyContent: 'center' }}
              count={meta.last_page}
              page={meta.current_page}
              onChange={(_, value) => setPage(value)}
              getItemAriaLabel={(type, value) =>
                type === 'page' ? `Page ${value}` : type === 'next' ? 'Next page' : 'Previous page'
              }
            />
          )}
        </>
      )}
    </Box>
  );
}

function AuditLogRow({ row }: { row: AuditRow }) {
  return (
    <TableRow sx={{ verticalAlign: 'top' }}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(new Date(row.created_at))}</TableCell>
      <TableCell>
        {label(row.model)}
        {row.model_id && (
          <Typography variant="caption" color="text.secondary" component="div">
            {row.model_id}
          </Typography>
        )}
      </TableCell>
      <TableCell>
        <Chip size="small" variant="outlined" label={label(row.action)} />
      </TableCell>
      <TableCell>
        {row.actor ? (
          <>
            {row.actor.name || row.actor.email}
            <Typography variant="caption" color="text.secondary" component="div">
              {row.actor.email}
            </Typography>
          </>
        ) : (
          <Typography variant="body2" color="text.secondary">
            System
          </Typography>
        )}
      </TableCell>
      <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{row.organization?.name ?? '—'}</TableCell>
      <TableCell>
        <AuditValue value={row.previous_value} label="previous value" />
      </TableCell>
      <TableCell>
        <AuditValue value={row.new_value} label="new value" />
      </TableCell>
    </TableRow>
  );
}
