// Cases' server state: the list, a case, and the changes to them. Every change refetches the
// cases, whose timeline the server writes.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addCaseComment,
  addCaseItem,
  createCase,
  deleteCase,
  deleteCaseItem,
  fetchCase,
  fetchCases,
  updateCase,
  updateCaseItem,
  type CaseChange,
  type CaseFilter,
  type CaseItemInput,
} from '../api/cases';
import { fetchEvidence, isCapturing } from '../api/evidence';
import { caseKeys } from '../api/keys';

export function useCasesQuery(filter: CaseFilter) {
  return useQuery({
    queryKey: caseKeys.list(filter),
    queryFn: ({ signal }) => fetchCases(filter, signal),
  });
}

export function useCaseQuery(id: number) {
  return useQuery({
    queryKey: caseKeys.detail(id),
    queryFn: ({ signal }) => fetchCase(id, signal),
  });
}

/** An evidence record's hashes and timestamps; absent where the server does not capture evidence. */
export function useEvidenceQuery(id: string) {
  return useQuery({
    queryKey: caseKeys.evidence(id),
    queryFn: ({ signal }) => fetchEvidence(id, signal),
    retry: false,
    // A capture added while it runs (a web page captured into the case) is polled until it ends,
    // in case its live event is missed.
    refetchInterval: (query) => (isCapturing(query.state.data) ? 3000 : false),
  });
}

function useCaseMutation<T, R>(fn: (vars: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: caseKeys.all }),
  });
}

export function useCreateCase() {
  return useCaseMutation(({ name, description }: { name: string; description?: string }) =>
    createCase(name, description),
  );
}

export function useUpdateCase(id: number) {
  return useCaseMutation((change: CaseChange) => updateCase(id, change));
}

export function useDeleteCase() {
  return useCaseMutation((id: number) => deleteCase(id));
}

export function useAddCaseItem() {
  return useCaseMutation(({ caseId, item }: { caseId: number; item: CaseItemInput }) => addCaseItem(caseId, item));
}

export function useUpdateCaseItem(caseId: number) {
  return useCaseMutation(({ itemId, note }: { itemId: number; note: string }) => updateCaseItem(caseId, itemId, note));
}

export function useDeleteCaseItem(caseId: number) {
  return useCaseMutation((itemId: number) => deleteCaseItem(caseId, itemId));
}

export function useAddCaseComment(caseId: number) {
  return useCaseMutation((body: string) => addCaseComment(caseId, body));
}
