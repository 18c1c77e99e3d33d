import { ApiError } from '../api/transport';

/**
 * What to say when a search fails: the server's own words for a refused search (422 with its
 * fields, 429, 403) and for one it could not run just now (503), else the spec's fallback message
 * ("Search failed", "Error loading more results"). A field's message that repeats the reply's
 * (a provider-not-supported refusal) is said once.
 */
export function searchError(error: Error, fallback: string): string {
  if (error instanceof ApiError && [403, 422, 429, 503].includes(error.status)) {
    const fields = Object.values(error.body?.errors ?? {})
      .flat()
      .filter((m) => m !== error.message);
    return fields.length > 0 ? `${error.message}: ${fields.join(' ')}` : error.message;
  }
  return fallback;
}

/** Whether the same search may work when tried again: not when it was refused for what it asks. */
export function retryable(error: Error): boolean {
  return !(error instanceof ApiError && (error.status === 403 || error.status === 422));
}
