// How the audit log shows a previous or new value: one line per changed field.

/** Values longer than this are cut until expanded. */
export const AUDIT_VALUE_PREVIEW = 120;

/** One field of a value as a line: "keywords: flood OR fire"; lists and objects as compact JSON. */
export function auditLines(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (typeof value !== 'object' || Array.isArray(value))
    return [typeof value === 'string' ? value : JSON.stringify(value)];
  return Object.entries(value as Record<string, unknown>).map(
    ([key, v]) => `${key.replaceAll('_', ' ')}: ${typeof v === 'string' ? v : JSON.stringify(v)}`,
  );
}
