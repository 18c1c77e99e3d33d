import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import type { DeliveryStatus, SkipReason } from '../../api/notifications';
import { DELIVERY_REFRESH_MS, useDeliveriesQuery } from '../../hooks/useNotificationQueries';
import { ALERT_KINDS, deliveryWhy } from '../../lib/alerts';
import { formatDateTime, fromUnixSeconds } from '../../lib/dateRange';
import { LoadError } from '../LoadError';

const STATUS: Record<DeliveryStatus, { label: string; color: 'default' | 'success' | 'warning' | 'error' }> = {
  pending: { label: 'Pending', color: 'default' },
  sent: { label: 'Sent', color: 'success' },
  retrying: { label: 'Retrying', color: 'warning' },
  failed: { label: 'Failed', color: 'error' },
  skipped: { label: 'Not sent', color: 'default' },
};

const SKIPPED: Record<SkipReason, string> = {
  grouped: 'Grouped',
  snoozed: 'Snoozed',
  muted: 'Muted',
  held: 'Held back',
};

const kindLabel = (type: string) => ALERT_KINDS.find((k) => k.type === type)?.label ?? type;
const when = (seconds: number) => formatDateTime(fromUnixSeconds(seconds) ?? new Date(seconds * 1000));

/** What a saved search's alerts delivered, newest first; reloads while a delivery is under way. */
export function DeliveryHistory({ searchId }: { searchId: number }) {
  const deliveries = useDeliveriesQuery(searchId);
  const headingId = useId();

  return (
    <Stack spacing={1.5} component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h4" component="h3">
        Delivery history
      </Typography>
      {deliveries.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading the delivery history">
          <Skeleton variant="rounded" height={36} />
          <Skeleton variant="rounded" height={36} />
        </Stack>
      )}
      {deliveries.isError && (
        <LoadError onRetry={() => void deliveries.refetch()}>{deliveries.error.message}</LoadError>
      )}
      {deliveries.data?.length === 0 && (
        <Typography color="text.secondary">
          Nothing has been delivered yet. When an alert is on and new matches arrive, each e-mail and webhook call is
          listed here with its status; a delivery that fails is tried again for 24 hours. Matches not sent — grouped
          into a story already told of, snoozed, muted or held back by the flood guard — are listed too, with why.
        </Typography>
      )}
      {deliveries.data && deliveries.data.length > 0 && (
        <>
          {deliveries.data.some((d) => d.status === 'pending' || d.status === 'retrying') && (
            <Typography variant="body2" color="text.secondary">
              Deliveries are under way: this list refreshes every {DELIVERY_REFRESH_MS / 1000} seconds.
            </Typography>
          )}
          <TableContainer>
            <Table size="small" aria-label="Deliveries">
              <TableHead>
                <TableRow sx={{ '& th': { whiteSpace: 'nowrap' } }}>
                  <TableCell>Type</TableCell>
                  <TableCell>Destination</TableCell>
                  <TableCell align="right">Matches</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Why</TableCell>
                  <TableCell align="right">Attempts</TableCell>
                  <TableCell>Last error</TableCell>
                  <TableCell>Time</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {deliveries.data.map((delivery) => {
                  const status = STATUS[delivery.status];
                  return (
                    <TableRow key={delivery.id}>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{kindLabel(delivery.type)}</TableCell>
                      <TableCell sx={{ overflowWrap: 'break-word', wordBreak: 'break-word' }}>
                        {delivery.destination.address}
                      </TableCell>
                      <TableCell align="right">{delivery.matchCount}</TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          label={delivery.skipped ? SKIPPED[delivery.skipped] : status.label}
                          color={status.color}
                          variant={delivery.status === 'skipped' ? 'outlined' : 'filled'}
                        />
                        {delivery.status === 'retrying' && delivery.nextAttemptAt !== null && (
                          <Typography variant="caption" color="text.secondary" component="div">
                            Next attempt {when(delivery.nextAttemptAt)}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell sx={{ minWidth: 240, overflowWrap: 'anywhere' }}>{deliveryWhy(delivery)}</TableCell>
                      <TableCell align="right">{delivery.attempts}</TableCell>
                      <TableCell sx={{ overflowWrap: 'break-word', wordBreak: 'break-word' }}>
                        {delivery.lastError || '—'}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(delivery.sentAt ?? delivery.createdAt)}</TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </Stack>
  );
}
