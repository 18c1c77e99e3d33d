// Cases (docs/cases-api.md): investigations with items, notes, a timeline and comments, shared
// as saved searches are, and exported as one ZIP.
import type { Case, CaseCommentCreated, CaseStatus, CaseSummary, Privacy, ShareRole } from './contracts.gen';
import { request } from './transport';

export type {
  Case,
  CaseCommentReply,
  CaseEventReply,
  CaseItemKind,
  CaseItemReply,
  CasePersonReply,
  CaseStatus,
  CaseSummary,
  Place as CasePlace,
} from './contracts.gen';
export { CASE_STATUSES } from './contracts.gen';

/** How each status reads. */
export const CASE_STATUS_LABELS: Record<CaseStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  closed: 'Closed',
};

/** What narrows the case list; empty fields do not. */
export interface CaseFilter {
  status: CaseStatus | '';
  /** A member's id, or "me". */
  assignee: string;
  tag: string;
  q: string;
}

export const NO_CASE_FILTER: CaseFilter = { status: '', assignee: '', tag: '', q: '' };

export async function fetchCases(filter: CaseFilter, signal?: AbortSignal): Promise<CaseSummary[]> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value.trim() !== '') params.set(key, value.trim());
  }
  const query = params.toString();
  return (await request<CaseSummary[]>('GET', `/api/v1/cases${query ? `?${query}` : ''}`, { signal })).data;
}

export async function fetchCase(id: number, signal?: AbortSignal): Promise<Case> {
  return (await request<Case>('GET', `/api/v1/cases/${id}`, { signal })).data;
}

export async function createCase(name: string, description = ''): Promise<number> {
  return (await request<{ id: number }>('POST', '/api/v1/cases', { body: { name, description } })).data.id;
}

/** A change to a case; absent fields stay as they are. */
export interface CaseChange {
  name?: string;
  description?: string;
  status?: CaseStatus;
  privacy?: Privacy;
  assignees?: number[];
  tags?: string[];
  sharedUsers?: { userId: number; role: ShareRole }[];
}

export async function updateCase(id: number, change: CaseChange): Promise<void> {
  await request('PATCH', `/api/v1/cases/${id}`, { body: change });
}

export async function deleteCase(id: number): Promise<void> {
  await request('DELETE', `/api/v1/cases/${id}`);
}

/** What to add: exactly one of the ids, with a note. */
export type CaseItemInput = (
  { postId: string } | { storyId: string } | { matchId: string } | { evidenceId: string }
) & { note?: string };

export async function addCaseItem(caseId: number, item: CaseItemInput): Promise<number> {
  return (await request<{ id: number }>('POST', `/api/v1/cases/${caseId}/items`, { body: item })).data.id;
}

export async function updateCaseItem(caseId: number, itemId: number, note: string): Promise<void> {
  await request('PATCH', `/api/v1/cases/${caseId}/items/${itemId}`, { body: { note } });
}

export async function deleteCaseItem(caseId: number, itemId: number): Promise<void> {
  await request('DELETE', `/api/v1/cases/${caseId}/items/${itemId}`);
}

export async function addCaseComment(caseId: number, body: string): Promise<CaseCommentCreated> {
  return (await request<CaseCommentCreated>('POST', `/api/v1/cases/${caseId}/comments`, { body: { body } })).data;
}

/** The ZIP's address; the browser downloads it with the session cookie. */
export function caseExportUrl(id: number): string {
  return `/api/v1/cases/${id}/export`;
}
