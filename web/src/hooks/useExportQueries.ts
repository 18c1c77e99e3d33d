import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchExports, requestExport, type ExportRequest, type ExportSelection } from '../api/exports';
import { exportKeys } from '../api/keys';

/** The export history; refreshed every few seconds while one is being written. */
export function useExportsQuery(enabled = true) {
  return useQuery({
    queryKey: exportKeys.all,
    enabled,
    queryFn: ({ signal }) => fetchExports(signal),
    refetchInterval: (query) =>
      query.state.data?.some((e) => e.status === 'pending' || e.status === 'running') ? 3000 : false,
  });
}

export function useRequestExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ selection, options }: { selection: ExportSelection; options: ExportRequest }) =>
      requestExport(selection, options),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: exportKeys.all }),
  });
}
