// Content sources and their health (issue #16; docs/connectors.md): tenant admins add, edit,
// test, switch on and off and remove the sources the server reads.
import { request } from './transport';

export type SourceState = 'ok' | 'degraded' | 'failing' | 'unreachable' | 'disabled' | 'pending';

export interface SourceError {
  at: string;
  message: string;
}

/** A source's health as the node running it last reported it. */
export interface SourceHealth {
  id: number;
  name: string;
  type: string;
  state: SourceState;
  message?: string;
  lastSuccess?: string;
  lastError?: SourceError;
  itemsLastHour: number;
  /** Items in each of the last 60 minutes, oldest first. */
  minutes: number[];
  /** Now minus the newest item's publication; null before any item. */
  lagSeconds: number | null;
  silenceSeconds: number | null;
  /** A silence much longer than the source's usual. */
  gap: boolean;
  retries: number;
  deadLettered: number;
  lastDeadLetter?: string;
  reportedAt?: string;
}

export type SourceConfig = Record<string, unknown>;

export interface Source {
  id: number;
  type: string;
  name: string;
  config: SourceConfig;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  health: SourceHealth;
}

export interface SourceInput {
  type?: string;
  name?: string;
  config?: SourceConfig;
  enabled?: boolean;
}

/** A post as a test fetch would store it. */
export interface PreviewItem {
  provider: string;
  native_id: string;
  title_text?: string;
  content_text?: string;
  post_link?: string;
  author_name?: string;
  published_at: string;
}

export interface SourcePreview {
  ok: boolean;
  error?: string;
  items: PreviewItem[];
}

/** Something about the ingest pipeline every source's posts go through: it is behind, or its queue nearly full. */
export interface PipelineWarning {
  kind: 'pipeline-lag' | 'stream-full';
  message: string;
}

/**
 * A source outside the sources table, read-only: the node's own (the simulator, shared by every
 * tenant, configured by the server's flags) or a name the tenant's API tokens push posts under.
 */
export interface BuiltInSource {
  kind: 'node' | 'ingest';
  name: string;
  /** Whose token pushes an ingest source's posts. */
  userId?: number;
  state: 'running' | 'failing' | 'idle';
  /** The node's own source's configured rate; null for ingest, whose pace is its pusher's. */
  ratePerSecond: number | null;
  /** An ingest source's posts stored in the last hour; null for the node's own. */
  itemsLastHour: number | null;
  /** Emitted since the server started (the node's own), or stored (ingest). */
  count: number;
  lastSuccess?: string;
  lastError?: string;
}

export interface SourcesHealth {
  sources: SourceHealth[];
  /** Sources that worked before and now fail or do not answer: the top bar's warning. */
  failing: number;
  /** The server cannot reach the internet at all; message says so and what to do. */
  offline: boolean;
  message?: string;
  warnings?: PipelineWarning[];
  builtIn?: BuiltInSource[];
}

export async function fetchSources(signal?: AbortSignal): Promise<Source[]> {
  return (await request<Source[]>('GET', '/api/v1/sources', { signal })).data;
}

export async function fetchSourceTypes(signal?: AbortSignal): Promise<string[]> {
  return (await request<string[]>('GET', '/api/v1/sources/types', { signal })).data;
}

export async function fetchSourcesHealth(signal?: AbortSignal): Promise<SourcesHealth> {
  return (await request<SourcesHealth>('GET', '/api/v1/sources/health', { signal })).data;
}

export async function createSource(input: SourceInput): Promise<Source> {
  return (await request<Source>('POST', '/api/v1/sources', { body: input })).data;
}

export async function updateSource(id: number, input: SourceInput): Promise<Source> {
  return (await request<Source>('PATCH', `/api/v1/sources/${id}`, { body: input })).data;
}

export async function deleteSource(id: number): Promise<void> {
  await request<{ message: string }>('DELETE', `/api/v1/sources/${id}`);
}

/** Fetches once and answers what would be stored; nothing is. */
export async function testSource(input: SourceInput, id?: number): Promise<SourcePreview> {
  const path = id === undefined ? '/api/v1/sources/test' : `/api/v1/sources/${id}/test`;
  return (await request<SourcePreview>('POST', path, { body: input })).data;
}
