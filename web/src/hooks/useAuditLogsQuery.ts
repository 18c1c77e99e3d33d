import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AuditFilters, fetchAuditLogs } from '../api/audit';

export function useAuditLogsQuery(filters: AuditFilters, page: number) {
  return useQuery({
    queryKey: ['tenant', 'audit-logs', filters, page],
    queryFn: ({ signal }) => fetchAuditLogs(filters, page, signal),
    placeholderData: keepPreviousData,
  });
}
