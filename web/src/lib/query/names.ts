// Saved-search names: the builder's auto-fill and duplicate naming (monitor-area.md section 4),
// the browser port of internal/query/keywords.go.

import { trimSpace } from './analysis';

export const MAX_NAME_LENGTH = 255;

const COPY_SUFFIX = /\(copy(?: ([0-9]+))?\)$/;

/** Whether a name ends in "(copy)" or "(copy N)". */
export const hasCopySuffix = (name: string): boolean => COPY_SUFFIX.test(name);

/**
 * The name the builder fills in while the user has not edited it: the location, else the
 * keywords, else the author (the first that is not blank, trimmed), cut to 255 characters plus
 * an ellipsis. A current name ending in a copy suffix (a duplicate) is kept.
 */
export function autoName(current: string, location: string, keywords: string, author: string): string {
  if (hasCopySuffix(current)) return current;
  for (const raw of [location, keywords, author]) {
    const source = trimSpace(raw);
    if (source === '') continue;
    const chars = [...source];
    return chars.length > MAX_NAME_LENGTH ? chars.slice(0, MAX_NAME_LENGTH).join('') + '…' : source;
  }
  return '';
}

/** Adds one to a decimal numeral of any length (leading zeros dropped), so no counter overflows. */
function incrementDecimal(n: string): string {
  const digits = ('0' + n.replace(/^0+/, '')).split('');
  let i = digits.length - 1;
  while (digits[i] === '9') digits[i--] = '0';
  digits[i] = String(Number(digits[i]) + 1);
  return digits.join('').replace(/^0/, '');
}

/**
 * The name of a duplicated search: "name (copy)", or for a name already ending in "(copy)" or
 * "(copy N)", the counter raised ("(copy)" counts as 1, so the first numbered copy is "(copy 2)").
 */
export function duplicateName(name: string): string {
  const m = COPY_SUFFIX.exec(name);
  if (!m) return `${name} (copy)`;
  return `${name.slice(0, m.index)}(copy ${incrementDecimal(m[1] ?? '1')})`;
}
