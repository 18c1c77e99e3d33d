// Evidence captures (docs/evidence.md; issue #32): a capture is queued, a worker fetches the page
// and its media and timestamps the hashes, and evidence.updated on the live channel says how far
// it got.
import type { AutoCapture, AutoCaptureMode, Evidence } from './contracts.gen';
import { request } from './transport';

export type { Evidence, EvidenceFile, EvidenceTimestamp, EvidenceUpdated } from './contracts.gen';

/** What to capture: one of them. */
export type CaptureTarget = { postId: string } | { matchId: string } | { storyId: string } | { url: string };

/** Asks for a capture; the reply is the new record's id. */
export async function captureEvidence(target: CaptureTarget): Promise<string> {
  return (await request<{ id: string }>('POST', '/api/v1/evidence', { body: target })).data.id;
}

export async function fetchEvidence(id: string, signal?: AbortSignal): Promise<Evidence> {
  return (await request<Evidence>('GET', `/api/v1/evidence/${encodeURIComponent(id)}`, { signal })).data;
}

/** A file of a record, downloaded with the session cookie. */
export function evidenceFileUrl(id: string, name: string): string {
  return `/api/v1/evidence/${encodeURIComponent(id)}/files/${name.split('/').map(encodeURIComponent).join('/')}`;
}

/** The record's bundle ZIP, which `sightline evidence verify` checks offline. */
export function evidenceBundleUrl(id: string): string {
  return `/api/v1/evidence/${encodeURIComponent(id)}/bundle`;
}

/** A capture the worker has not finished. */
export function isCapturing(e: Evidence | undefined): boolean {
  return e?.state === 'pending' || e?.state === 'running';
}

export type { AutoCapture, AutoCaptureMode } from './contracts.gen';

/** A saved search's automatic capture of its matches (docs/evidence.md, "Automatic capture"). */
export async function fetchAutoCapture(searchId: number, signal?: AbortSignal): Promise<AutoCapture> {
  return (await request<AutoCapture>('GET', `/api/v1/monitor/searches/${searchId}/capture`, { signal })).data;
}

export async function saveAutoCapture(searchId: number, mode: AutoCaptureMode): Promise<AutoCapture> {
  return (await request<AutoCapture>('PUT', `/api/v1/monitor/searches/${searchId}/capture`, { body: { mode } })).data;
}
