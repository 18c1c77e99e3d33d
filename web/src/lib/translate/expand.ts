// "Expand to languages" (issue 15): each keyword of a search followed by its translations, so
// the search finds posts written in those languages too. The query is rewritten term by term;
// its operators, brackets and exclusions stay as the user wrote them.

import { queryTerms, replaceTerms } from '../query/terms';
import { asTerm } from './phrases';

/** The distinct keywords of a query that have a translation: plain words and phrases. */
export function translatableTerms(q: string): string[] {
  return [
    ...new Set(
      queryTerms(q)
        .filter((t) => t.plain)
        .map((t) => t.text),
    ),
  ];
}

/** How a keyword compares with another: case and quotes do not make a different keyword. */
export function sameKeyword(a: string, b: string): boolean {
  const norm = (s: string) => s.replaceAll('"', '').trim().toLocaleLowerCase();
  return norm(a) === norm(b);
}

/**
 * The query with each keyword that has alternatives written as (keyword OR alternative …): an
 * excluded keyword leaves out all of them, a proximity phrase keeps its distance on translated
 * phrases. Alternatives equal to their keyword or to one before them are dropped.
 */
export function expandQuery(q: string, alternatives: ReadonlyMap<string, readonly string[]>): string {
  const cs = [...q];
  return replaceTerms(q, (term) => {
    if (!term.plain) return undefined;
    const kept: string[] = [];
    for (const alternative of alternatives.get(term.text) ?? []) {
      if (sameKeyword(alternative, term.text) || kept.some((k) => sameKeyword(k, alternative))) continue;
      kept.push(alternative);
    }
    if (kept.length === 0) return undefined;
    const written = cs.slice(term.start, term.end).join('');
    const terms = kept.map((k) => {
      const t = asTerm(k);
      return t.startsWith('"') ? t + term.suffix : t;
    });
    return `(${[written, ...terms].join(' OR ')})`;
  });
}
