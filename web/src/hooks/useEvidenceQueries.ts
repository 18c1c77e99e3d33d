import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  captureEvidence,
  fetchAutoCapture,
  fetchEvidence,
  isCapturing,
  saveAutoCapture,
  type AutoCaptureMode,
  type CaptureTarget,
} from '../api/evidence';
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

export function useAutoCaptureQuery(searchId: number) {
  return useQuery({ queryKey: evidenceKeys.auto(searchId), queryFn: ({ signal }) => fetchAutoCapture(searchId, signal) });
}

export function useSaveAutoCapture(searchId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mode: AutoCaptureMode) => saveAutoCapture(searchId, mode),
    onSuccess: (saved) => queryClient.setQueryData(evidenceKeys.auto(searchId), saved),
  });
}
