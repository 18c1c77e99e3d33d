// Exports of posts to CSV or JSON (docs/monitor-api.md, "Exports"; issue #13): a request is
// queued, a worker writes the file, and export.ready on the live channel says it can be fetched.
import type { SearchCategory, SearchRequest } from './beacon';
import { matchFilterBody, type MatchQuery } from './monitor';
import { browserLanguage } from '../lib/translate/languages';
import { request } from './transport';

export type { ExportReady } from './contracts.gen';

export type ExportFormat = 'csv' | 'json';
export type ExportStatus = 'pending' | 'running' | 'ready' | 'failed';
export type EmailStatus = '' | 'pending' | 'sent' | 'off' | 'failed';

/** The inbox filters an export of matches takes (as GET /api/v1/monitor/matches does). */
export interface ExportMatchFilters {
  monitorSearchIds?: number[];
  images?: boolean;
  location?: boolean;
  video?: boolean;
  unread?: boolean;
  flagged?: boolean;
  providers?: string[];
  searchText?: string;
  searchIn?: string[];
  sort?: string;
}

/** The inbox's filters and order, for an export of what the inbox shows. */
export function exportFilters(query: MatchQuery): ExportMatchFilters {
  return { ...matchFilterBody(query), sort: query.sort };
}

/** What to export: chosen matches, the inbox as filtered, or a Beacon search. */
export type ExportSelection =
  | { source: 'matches'; matchIds: number[] }
  | { source: 'matches'; filters: ExportMatchFilters }
  | { source: 'beacon'; search: SearchRequest; category: SearchCategory };

export interface ExportRequest {
  columns: string[];
  format: ExportFormat;
  email?: string;
}

export interface Export {
  id: string;
  source: 'matches' | 'beacon';
  format: ExportFormat;
  columns: string[];
  status: ExportStatus;
  postCount: number;
  /** Unix seconds. */
  createdAt: number;
  finishedAt: number | null;
  expiresAt: number;
  error: string;
  downloadUrl: string | null;
  email: string;
  emailStatus: EmailStatus;
}

export async function requestExport(selection: ExportSelection, options: ExportRequest): Promise<Export> {
  // The translatedText column is filled in the language cards open in: the browser's.
  const translateTo = options.columns.includes('translatedText') ? browserLanguage() : undefined;
  const body = { ...selection, ...options, email: options.email?.trim() || undefined, translateTo };
  return (await request<Export>('POST', '/api/v1/exports', { body })).data;
}

/** The user's exports of the last 30 days, newest first. */
export async function fetchExports(signal?: AbortSignal): Promise<Export[]> {
  return (await request<Export[]>('GET', '/api/v1/exports', { signal })).data;
}
