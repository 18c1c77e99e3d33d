/**
 * Formats a count for badges and headings: 999 stays as it is, thousands read 1.2k and millions
 * 3.4M. The decimal is cut, not rounded, so 999,999 reads 999.9k rather than 1000.0k.
 */
export function formatCount(count: number): string {
  if (count >= 1_000_000) return `${oneDecimalDown(count / 1_000_000)}M`;
  if (count >= 1_000) return `${oneDecimalDown(count / 1_000)}k`;
  return String(count);
}

function oneDecimalDown(value: number): string {
  return (Math.floor(value * 10) / 10).toFixed(1);
}

/** A formatted count with its noun: "1 match", "12 matches", "1.2k matches". */
export function countOf(count: number, singular: string, plural: string): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

/**
 * A search's total as a results heading says it, with where it searched ("in Social"): exact
 * ("130 results"), past what was counted ("More than 1.0k results"), or, when the posts searched
 * so far held no match and older ones remain (a first page that ran out of time), that none was
 * found yet.
 */
export function resultTotal(total: number, isEstimate: boolean, scope?: string): string {
  const where = scope ? ` in ${scope}` : '';
  if (isEstimate && total === 0) {
    return `No results yet among the newest posts searched${where}; load more to search older ones`;
  }
  return `${isEstimate ? 'More than ' : ''}${countOf(total, 'result', 'results')}${where}`;
}
