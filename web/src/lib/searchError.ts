import { ApiError } from '../api/transport';

/**
 * What to say when a search fails: the server's own words for a refused search (422 with its
 * fields, 429, 403), else the spec's fallback message ("Search failed", "Error loading more
 * results").
 */
export function searchError(error: Error, fallback: string): string {
  if (error instanceof ApiError && (error.status === 429 || error.status === 422 || error.status === 403)) {
    const fields = Object.values(error.body?.errors ?? {}).flat();
    return fields.length > 0 ? `${error.message}: ${fields.join(' ')}` : error.message;
  }
  return fallback;
}
