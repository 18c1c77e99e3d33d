import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AuditFilters, fetchAuditLogs } from '../api/audit';
import { tenantKeys } from '../api/keys';

export function useAuditLogsQuery(filters: AuditFilters, page: number) {
  return useQuery({
    queryKey: tenantKeys.auditLogs(filters, page),
    queryFn: ({ signal }) => fetchAuditLogs(filters, page, signal),
    placeholderData: keepPreviousData,
  });
}
