import { useMutation, useQuery } from '@tanstack/react-query';
import { captureEvidence, fetchEvidence, isCapturing, type CaptureTarget } from '../api/evidence';
import { evidenceKeys } from '../api/keys';

/** One record; polled every few seconds while it is captured, in case a live event is missed. */
export function useEvidenceQuery(id: string | null) {
  return useQuery({
    queryKey: evidenceKeys.record(id ?? ''),
    queryFn: ({ signal }) => fetchEvidence(id ?? '', signal),
    enabled: id !== null,
    refetchInterval: (query) => (isCapturing(query.state.data) ? 3000 : false),
  });
}

export function useCaptureEvidence() {
  return useMutation({ mutationFn: (target: CaptureTarget) => captureEvidence(target) });
}
