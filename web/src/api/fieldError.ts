import { ApiError } from './transport';

/** The server's first message for a form field, from a 422 reply. */
export function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.body?.errors?.[field]?.[0] : undefined;
}

/** The reply's message when none of the form's fields carries it. */
export function formError(error: unknown, fields: string[]): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (fields.some((f) => fieldError(error, f) !== undefined)) return undefined;
  return error.message;
}
