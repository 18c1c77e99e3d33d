// The terms of a query where they stand in its text, so a tool can rewrite one term (give it
// alternatives) and leave every operator, bracket and exclusion as the user wrote it.

import { hasSearchable } from './analysis';
import { lex } from './validate';

export interface TermSpan {
  /** Where the term stands, in code points: [start, end), quotes and any ~N included. */
  start: number;
  end: number;
  /** The word, or the inside of a quoted phrase. */
  text: string;
  kind: 'word' | 'phrase';
  /** A phrase's proximity ("~3"), or empty. */
  suffix: string;
  /** Directly after a '-'. */
  excluded: boolean;
  /**
   * Plain words and phrases: those with a wildcard or a similarity ~ stand for spellings, not
   * for a word that has a translation.
   */
  plain: boolean;
}

/** The words and quoted phrases of a query, in order. */
export function queryTerms(q: string): TermSpan[] {
  const lexemes = lex(q);
  const terms: TermSpan[] = [];
  lexemes.forEach((lx, i) => {
    if (lx.kind !== 'word' && lx.kind !== 'phrase') return;
    if (!hasSearchable(lx.text)) return;
    const lowerOperator = lx.kind === 'word' && /^(and|or)$/i.test(lx.text);
    const wildcard = lx.kind === 'word' && /[*?]/.test(lx.text);
    const similar = lx.kind === 'word' && lx.tilde;
    const closed = lx.kind === 'word' || [...q][lx.end - 1] === '"' || lx.tilde;
    terms.push({
      start: lx.start,
      end: lx.end,
      text: lx.text,
      kind: lx.kind,
      suffix: lx.kind === 'phrase' && lx.tilde ? `~${lx.digits}` : '',
      excluded: lexemes[i - 1]?.kind === 'minus',
      plain: !lowerOperator && !wildcard && !similar && closed,
    });
  });
  return terms;
}

/**
 * The query with some terms replaced: replace returns a term's new text, or undefined to keep
 * it. Everything between terms stays as written.
 */
export function replaceTerms(q: string, replace: (term: TermSpan) => string | undefined): string {
  const cs = [...q];
  let out = '';
  let at = 0;
  for (const term of queryTerms(q)) {
    const next = replace(term);
    if (next === undefined) continue;
    out += cs.slice(at, term.start).join('') + next;
    at = term.end;
  }
  return out + cs.slice(at).join('');
}
