// Highlights in post text of what a saved search matched. Query words are cut into tokens by the
// query-language port; post text is cut and folded the way the server's analyzer does it
// (QUERY_LANGUAGE.md, "Text analysis"; the port has no text side, the server holds the matcher),
// so a highlighted word is one the matcher counted: `Café` for `cafe`, `#OSINT` for `osint`.
import { rawQueryTokens } from './query/analysis';

/** A token: a run of letters, digits, marks and underscores; Han, Hiragana and Katakana stand alone. */
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}_]+/gu;
const IDEOGRAPH = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const SEARCHABLE = /[\p{L}\p{N}_]/u;
const NONSPACING_MARKS = /\p{Mn}/gu;

/** Case and accent folding: NFKD, nonspacing marks removed, full case folding (ß to ss). */
export function foldToken(token: string): string {
  const stripped = token.normalize('NFKD').replace(NONSPACING_MARKS, '');
  // Upper then lower case gives the full folding for the cases that matter (ß, final sigma).
  return stripped.toUpperCase().toLowerCase().normalize('NFKD').replace(NONSPACING_MARKS, '');
}

export interface Token {
  start: number;
  end: number;
  folded: string;
}

/** The tokens of text with their offsets, splitting runs that mix ideographs and other letters. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const found of text.matchAll(TOKEN)) {
    const value = found[0];
    const start = found.index;
    if (!SEARCHABLE.test(value) && !IDEOGRAPH.test(value)) continue;
    tokens.push({ start, end: start + value.length, folded: foldToken(value) });
  }
  return tokens;
}

/** One highlighted term: a word (possibly with wildcards) or a phrase of them. */
export type Term = RegExp[];

function wordPattern(word: string): RegExp {
  const escaped = foldToken(word)
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  return new RegExp(`^${escaped}$`, 'u');
}

/**
 * The positive terms of a keyword query: words and quoted phrases that are not excluded, with
 * their wildcards. Operators, brackets and similarity or proximity suffixes are dropped; a
 * similarity term highlights its exact form only.
 */
export function termsOf(query: string): Term[] {
  const terms: Term[] = [];
  const parts = query.matchAll(/(-?)"([^"]*)"(?:~\d+)?|(-?)([^\s"()]+)/g);
  for (const part of parts) {
    const excluded = (part[1] ?? part[3]) === '-';
    if (excluded) continue;
    const phrase = part[2];
    const text = phrase ?? (part[4] ?? '').replace(/~\d*$/, '');
    if (phrase === undefined && (text === 'AND' || text === 'OR')) continue;
    const words = rawQueryTokens(text).filter((w) => /[\p{L}\p{N}_]/u.test(w));
    if (words.length > 0) terms.push(words.map(wordPattern));
  }
  return terms;
}

export interface Segment {
  text: string;
  hit: boolean;
}

/** Cuts text into plain and highlighted segments, a phrase lit only where all its words follow each other. */
export function highlight(text: string, terms: Term[]): Segment[] {
  if (terms.length === 0 || text === '') return text === '' ? [] : [{ text, hit: false }];
  const tokens = tokenize(text);
  const lit = new Array<boolean>(tokens.length).fill(false);
  for (const term of terms) {
    for (let i = 0; i + term.length <= tokens.length; i++) {
      if (term.every((pattern, k) => pattern.test(tokens[i + k]?.folded ?? ''))) {
        for (let k = 0; k < term.length; k++) lit[i + k] = true;
      }
    }
  }
  const segments: Segment[] = [];
  let cursor = 0;
  const push = (end: number, hit: boolean) => {
    if (end <= cursor) return;
    const previous = segments[segments.length - 1];
    const piece = text.slice(cursor, end);
    if (previous && previous.hit === hit) previous.text += piece;
    else segments.push({ text: piece, hit });
    cursor = end;
  };
  tokens.forEach((token, i) => {
    if (!lit[i]) return;
    // The gap between two lit words of a phrase stays lit, so the phrase reads as one mark.
    const joinsPhrase = i > 0 && lit[i - 1] === true && /^\s+$/.test(text.slice(tokens[i - 1]?.end, token.start));
    push(token.start, joinsPhrase);
    push(token.end, true);
  });
  push(text.length, false);
  return segments;
}

/** What each saved search matched on (its keywords), plus the inbox's own search text, by search id. */
export function termsBySearch(
  searches: { id: number; search: { keywords: string[] } }[],
  searchText: string,
): Map<number, Term[]> {
  const extra = termsOf(searchText);
  return new Map(searches.map((s) => [s.id, [...s.search.keywords.flatMap(termsOf), ...extra]]));
}
