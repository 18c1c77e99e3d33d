// Keyword translation (search-side.md sections 4 and 5): what a translated keyword text holds,
// and how translated keywords join a search.

import { keywordList } from '../query';
import { hasSearchable } from '../query/analysis';

/**
 * The keywords of a text to translate, one call each: the keyword list (split on OR and commas),
 * each without its quotes, exclusion dash or ~N, so the translator reads words.
 */
export function keywordsToTranslate(text: string): string[] {
  const keywords = keywordList(text).map((k) =>
    k
      .replace(/~\d*$/, '')
      .replaceAll('"', '')
      .replace(/(^|\s)-+/g, '$1')
      .trim(),
  );
  return [...new Set(keywords.filter(hasSearchable))];
}

/**
 * The phrases of a translated text: split on OR outside quotes, trimmed, trailing commas
 * removed, empties and duplicates dropped (section 5).
 */
export function translatedPhrases(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inQuote = false;
  const tokens = text.split(/(\s+|")/);
  for (const token of tokens) {
    if (token === '"') inQuote = !inQuote;
    if (!inQuote && token === 'OR') {
      parts.push(current);
      current = '';
    } else {
      current += token;
    }
  }
  parts.push(current);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    const phrase = part.trim().replace(/,+$/, '').trim();
    if (phrase !== '' && !seen.has(phrase)) {
      seen.add(phrase);
      out.push(phrase);
    }
  }
  return out;
}

/**
 * A phrase as a search term: several words are quoted so they are searched together, and so is
 * a word the query language would read as something else (an operator, a bracket, an exclusion,
 * a wildcard).
 */
export function asTerm(phrase: string): string {
  if (/^"[^"]*"$/.test(phrase)) return phrase;
  if (!/[\s"(),*?~]/.test(phrase) && !phrase.startsWith('-') && !/^(and|or)$/i.test(phrase)) return phrase;
  return `"${phrase.replaceAll('"', '')}"`;
}

/**
 * The search with translated keywords added: appended to the existing ones joined with OR
 * (section 4), skipping those the search already holds word for word.
 */
export function appendKeywords(existing: string, added: readonly string[]): string {
  const base = existing.trim();
  const terms = [...new Set(added.map(asTerm))].filter((t) => !containsTerm(base, t));
  if (terms.length === 0) return base;
  const joined = terms.join(' OR ');
  if (base === '') return joined;
  // A search with AND at its top level would bind the new terms to its last one: bracket it.
  const needsBrackets = /\sAND\s/.test(base) && !/^\(.*\)$/.test(base);
  return `${needsBrackets ? `(${base})` : base} OR ${joined}`;
}

function containsTerm(query: string, term: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[\\s(])${escaped}($|[\\s),])`, 'u').test(query);
}
