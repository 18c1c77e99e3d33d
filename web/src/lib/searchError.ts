import { ApiError } from '../api/transport';

/**
 * What to say when a search fails: the server's own words for a refused search (422 with its
 * fields, 429, 403), for what it no longer has (404) and for one it could not run just now (503), else the spec's fallback message
 * ("Search failed", "Error loading more results"). A field's message that repeats the reply's
 * (a provider-not-supported refusal) is said once.
 */
export function searchError(error: Error, fallback: string): string {
  if (error instanceof ApiError && [403, 404, 422, 429, 503].includes(error.status)) {
    const fields = Object.values(error.body?.errors ?? {})
      .flat()
      .filter((m) => m !== error.message);
    return fields.length > 0 ? `${error.message}: ${fields.join(' ')}` : error.message;
  }
  return fallback;
}

/** Beacon's message for an action on results (flag, mark read or unread, delete) that failed. */
export const SEARCH_ACTION_FAILED = 'There was an error performing the search action!';

/**
 * What to say when an action on results fails: the server's own words when it gave some (a
 * refusal, a limit), what the transport says when no reply came (the network), else Beacon's
 * message for a failed search action.
 */
export function searchActionError(error: Error): string {
  if (!(error instanceof ApiError)) return SEARCH_ACTION_FAILED;
  if (error.status === 0 || error.body?.message) return error.message;
  return SEARCH_ACTION_FAILED;
}

/** Whether the same search may work when tried again: not when it was refused for what it asks. */
export function retryable(error: Error): boolean {
  return !(error instanceof ApiError && (error.status === 403 || error.status === 422));
}

/**
 * The spec's error types for a failed search (search-side.md, "Request status"): ERROR_404 when
 * what the search reads is gone, ERROR_LOADING when the server could not answer just now (no
 * reply, 429, 5xx; trying again may work), ERROR_UNKNOWN for anything else (a refused search).
 */
export type SearchErrorType = 'ERROR_404' | 'ERROR_LOADING' | 'ERROR_UNKNOWN';

export function searchErrorType(error: Error): SearchErrorType {
  if (!(error instanceof ApiError)) return 'ERROR_UNKNOWN';
  if (error.status === 404) return 'ERROR_404';
  if (error.status === 0 || error.status === 429 || error.status >= 500) return 'ERROR_LOADING';
  return 'ERROR_UNKNOWN';
}

/** The HTTP status of a failed search, 0 when none came; the Search Error page shows it above 0. */
export function searchErrorCode(error: Error): number {
  return error instanceof ApiError ? error.status : 0;
}
