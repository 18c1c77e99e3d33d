// Validation of keyword queries, the browser port of internal/query (lex.go, parse.go,
// validate.go). Codes and messages are the server's: internal/query/testdata/vectors.json keeps
// both sides in step (vectors.test.ts here, vectors_test.go there).

import { hasSearchable, isSearchable, isSpace, rawQueryTokens, trimSpace } from './analysis';

/** saved_search refuses lower-case and/or; beacon only warns. */
export type Mode = 'saved_search' | 'beacon';
export type Severity = 'error' | 'warning';

export interface Issue {
  code: string;
  message: string;
  severity: Severity;
}

export const MAX_LENGTH_WITH_AND = 255;
export const MAX_LENGTH = 2000;
export const MAX_SIMILAR_WORD = 32;
export const MAX_EDITS = 2;
export const MAX_SLOP = 100;
export const MAX_PROXIMITY_WORDS = 32;
/** Groups and exclusions nested in one another. */
export const MAX_DEPTH = 32;

/** The spec's text for a blank search submitted from the results page. */
export const BLANK_SEARCH_NOTICE = "You've submitted a blank search. Tell us what you'd like to search for!";

/** Every code, in the order issues are reported, with its message. */
export const CODES: readonly { code: string; message: string }[] = [
  { code: 'blank', message: 'Search cannot be empty' },
  { code: 'too_long_with_and', message: 'Searches that use AND can be at most 255 characters long' },
  { code: 'too_long', message: 'Searches can be at most 2000 characters long' },
  {
    code: 'lowercase_operator',
    message: 'Write the operators AND and OR in capitals, or put the word in quotes to search for it',
  },
  { code: 'unbalanced_quotes', message: 'Quotes must come in pairs' },
  {
    code: 'unbalanced_brackets',
    message: 'Every opening bracket needs a closing bracket, and every closing bracket an opening one',
  },
  { code: 'too_deep', message: 'Brackets and exclusions can be nested at most 32 levels deep' },
  { code: 'leading_operator', message: 'A search cannot start with AND or OR' },
  { code: 'trailing_operator', message: 'A search cannot end with AND or OR' },
  { code: 'operator_after_bracket', message: 'AND or OR cannot come right after an opening bracket' },
  { code: 'operator_before_bracket', message: 'AND or OR cannot come right before a closing bracket' },
  { code: 'consecutive_operators', message: 'Two operators cannot follow each other; put a keyword between them' },
  { code: 'empty_brackets', message: 'Brackets must contain a keyword' },
  { code: 'empty_quotes', message: 'Quotes must contain a word or phrase' },
  { code: 'bare_wildcard', message: 'A wildcard (* or ?) needs at least one letter or digit in the same word' },
  {
    code: 'bad_similarity',
    message:
      'Similarity (~) works on one word of at most 32 characters without wildcards, with at most 2 differences: word~, word~1 or word~2',
  },
  {
    code: 'bad_proximity',
    message:
      'Proximity needs a quoted phrase of at most 32 words, then ~ and a distance from 0 to 100, like "word1 word2"~5',
  },
  {
    code: 'no_positive_clause',
    message: 'A search needs at least one keyword that is not excluded, and so does each OR alternative',
  },
];

export type Kind = 'word' | 'phrase' | 'open' | 'close' | 'comma' | 'and' | 'or' | 'minus';

export interface Lexeme {
  kind: Kind;
  /** A word without its "~N" suffix, or the inside of a phrase. */
  text: string;
  tilde: boolean;
  digits: string;
  /** A word with nothing searchable in it ("-", "!!"): skipped. */
  noise: boolean;
  /** Where it stands in the query, in code points: [start, end). */
  start: number;
  end: number;
}

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';
const isOperator = (k: Kind) => k === 'and' || k === 'or';

function lexeme(kind: Kind, text = '', start = 0, end = 0): Lexeme {
  return { kind, text, tilde: false, digits: '', noise: false, start, end };
}

function wordLexeme(word: string[], start: number): Lexeme {
  const text = word.join('');
  const end = start + word.length;
  if (text === 'AND') return lexeme('and', text, start, end);
  if (text === 'OR') return lexeme('or', text, start, end);
  const w = lexeme('word', text, start, end);
  // A trailing "~" with only digits after it asks for similarity.
  let stem = word.length;
  while (stem > 0 && isDigit(word[stem - 1])) stem--;
  if (stem > 0 && word[stem - 1] === '~') {
    w.text = word.slice(0, stem - 1).join('');
    w.tilde = true;
    w.digits = word.slice(stem).join('');
  }
  w.noise = !hasSearchable(w.text);
  return w;
}

/** Splits a query into lexemes; it never fails, the rules judge the result. */
export function lex(q: string): Lexeme[] {
  const cs = [...q];
  const out: Lexeme[] = [];
  let i = 0;
  while (i < cs.length) {
    const c = cs[i]!;
    if (isSpace(c)) {
      i++;
    } else if (c === '(') {
      out.push(lexeme('open', '', i, i + 1));
      i++;
    } else if (c === ')') {
      out.push(lexeme('close', '', i, i + 1));
      i++;
    } else if (c === ',') {
      out.push(lexeme('comma', '', i, i + 1));
      i++;
    } else if (c === '"') {
      let end = i + 1;
      while (end < cs.length && cs[end] !== '"') end++;
      const phrase = lexeme('phrase', cs.slice(i + 1, end).join(''), i);
      const closed = end < cs.length;
      i = end;
      if (closed) {
        i++;
        if (cs[i] === '~') {
          phrase.tilde = true;
          i++;
          const start = i;
          while (isDigit(cs[i])) i++;
          phrase.digits = cs.slice(start, i).join('');
        }
      }
      phrase.end = i;
      out.push(phrase);
    } else {
      let end = i;
      while (end < cs.length) {
        const ch = cs[end]!;
        if (isSpace(ch) || ch === '(' || ch === ')' || ch === '"' || ch === ',') break;
        end++;
      }
      let word = cs.slice(i, end);
      let start = i;
      i = end;
      if (word[0] === '-' && (word.length > 1 || cs[i] === '"' || cs[i] === '(')) {
        out.push(lexeme('minus', '', start, start + 1));
        word = word.slice(1);
        start++;
        if (word.length === 0) continue;
      }
      out.push(wordLexeme(word, start));
    }
  }
  return out;
}

/** Whether the query has the AND operator (the browser judges only its own user's input). */
const usesAnd = (q: string): boolean => lex(q).some((lx) => lx.kind === 'and');

/** Drops words with nothing searchable in them, and a '-' that would exclude one. */
function significant(lexemes: Lexeme[]): Lexeme[] {
  return lexemes.filter((lx, i) => {
    if (lx.kind === 'word' && lx.noise) return false;
    const next = lexemes[i + 1];
    return !(lx.kind === 'minus' && next?.kind === 'word' && next.noise);
  });
}

type Node = { kind: 'term' } | { kind: 'not'; child: Node } | { kind: 'and' | 'or'; children: Node[] };

function combine(nodes: Node[], kind: 'and' | 'or'): Node | null {
  if (nodes.length === 0) return null;
  if (nodes.length === 1) return nodes[0]!;
  return { kind, children: nodes };
}

/**
 * Builds the tree, recovering from every malformation, so the positive-clause rule can judge it.
 * Nesting beyond MAX_DEPTH stops it: tooDeep, and the partial tree is not judged.
 */
function parse(lx: Lexeme[]): { root: Node | null; tooDeep: boolean } {
  let pos = 0;
  let depth = 0;
  let tooDeep = false;
  const kindAt = (p: number) => lx[p]?.kind;
  // Opens one level of nesting; beyond the cap, skips everything left.
  const enter = (): boolean => {
    if (depth === MAX_DEPTH) {
      tooDeep = true;
      pos = lx.length;
      return false;
    }
    depth++;
    return true;
  };

  const primary = (): Node | null => {
    const l = lx[pos++]!;
    if (l.kind === 'word' || l.kind === 'phrase') {
      return rawQueryTokens(l.text).length > 0 ? { kind: 'term' } : null;
    }
    if (l.kind === 'open') {
      if (!enter()) return null;
      const n = or();
      depth--;
      if (kindAt(pos) === 'close') pos++;
      return n;
    }
    return null;
  };
  const unary = (): Node | null => {
    if (kindAt(pos) !== 'minus') return primary();
    pos++;
    const k = kindAt(pos);
    if (k === 'word' || k === 'phrase' || k === 'open' || k === 'minus') {
      if (!enter()) return null;
      const n = unary();
      depth--;
      if (n) return { kind: 'not', child: n };
    }
    return null;
  };
  const and = (): Node | null => {
    const parts: Node[] = [];
    while (pos < lx.length) {
      const k = kindAt(pos);
      if (k === 'or' || k === 'comma' || k === 'close') break;
      if (k === 'and') {
        pos++;
        continue;
      }
      const n = unary();
      if (n) parts.push(n);
    }
    return combine(parts, 'and');
  };
  const or = (): Node | null => {
    const branches: Node[] = [];
    for (;;) {
      const n = and();
      if (n) branches.push(n);
      const k = kindAt(pos);
      if (k === 'or' || k === 'comma') {
        pos++;
        continue;
      }
      return combine(branches, 'or');
    }
  };

  const parts: Node[] = [];
  while (pos < lx.length) {
    const n = or();
    if (n) parts.push(n);
    if (kindAt(pos) === 'close') pos++; // a closing bracket without an opening one
  }
  return { root: combine(parts, 'and'), tooDeep };
}

/** A term outside any exclusion, on every OR branch. */
function hasPositiveClause(n: Node): boolean {
  switch (n.kind) {
    case 'term':
      return true;
    case 'not':
      return false;
    case 'and':
      return n.children.some(hasPositiveClause);
    case 'or':
      return n.children.length > 0 && n.children.every(hasPositiveClause);
  }
}

function isLowercaseOperator(word: string): boolean {
  const lower = word.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return (lower === 'and' || lower === 'or') && word !== 'AND' && word !== 'OR';
}

function checkTokens(text: string, failed: Set<string>) {
  for (const tok of rawQueryTokens(text)) {
    if (![...tok].some(isSearchable)) failed.add('bare_wildcard');
  }
}

function validSimilarity(lx: Lexeme): boolean {
  const digitsOk = lx.digits === '' || (lx.digits.length === 1 && lx.digits <= String(MAX_EDITS));
  return digitsOk && !/[*?]/.test(lx.text) && [...lx.text].length <= MAX_SIMILAR_WORD;
}

function validProximity(lx: Lexeme): boolean {
  if (lx.digits === '' || lx.digits.length > 3) return false;
  return Number(lx.digits) <= MAX_SLOP && rawQueryTokens(lx.text).length <= MAX_PROXIMITY_WORDS;
}

/** Where AND and OR may stand. Commas are soft separators, except right beside an operator. */
function checkOperators(sig: Lexeme[], failed: Set<string>) {
  const next = (i: number, ...skip: Kind[]) => {
    while (i < sig.length && skip.includes(sig[i]!.kind)) i++;
    return i;
  };
  const kindAt = (i: number) => sig[i]?.kind;
  const first = kindAt(next(0, 'comma'));
  if (first && isOperator(first)) failed.add('leading_operator');
  let last = sig.length - 1;
  while (last >= 0 && sig[last]!.kind === 'comma') last--;
  if (last >= 0 && isOperator(sig[last]!.kind)) failed.add('trailing_operator');
  sig.forEach((lx, i) => {
    if (lx.kind === 'open') {
      const k = kindAt(next(i + 1, 'comma'));
      if (k && isOperator(k)) failed.add('operator_after_bracket');
      if (kindAt(next(i + 1, 'comma', 'minus')) === 'close') failed.add('empty_brackets');
    } else if (isOperator(lx.kind)) {
      if (kindAt(next(i + 1, 'comma')) === 'close') failed.add('operator_before_bracket');
      const k = kindAt(next(i + 1, 'minus'));
      if (k && (isOperator(k) || k === 'comma')) failed.add('consecutive_operators');
    } else if (lx.kind === 'comma') {
      const k = kindAt(next(i + 1, 'minus'));
      if (k && isOperator(k)) failed.add('consecutive_operators');
    }
  });
}

function issuesOf(failed: Set<string>, mode: Mode): Issue[] {
  return CODES.filter((c) => failed.has(c.code)).map((c) => ({
    code: c.code,
    message: c.message,
    severity: c.code === 'lowercase_operator' && mode === 'beacon' ? 'warning' : 'error',
  }));
}

/** Every rule the query breaks, in a fixed order; it is usable when none is an error. */
export function validateQuery(q: string, mode: Mode): Issue[] {
  const failed = new Set<string>();
  if (trimSpace(q) === '') {
    failed.add('blank');
    return issuesOf(failed, mode);
  }
  // An over-long query is judged on its length alone, before it is lexed or parsed.
  if (q.length > MAX_LENGTH && [...q].length > MAX_LENGTH) {
    failed.add(usesAnd(q) ? 'too_long_with_and' : 'too_long');
    return issuesOf(failed, mode);
  }
  const all = lex(q);
  const sig = significant(all);

  const length = [...q].length;
  if (all.some((lx) => lx.kind === 'and') && length > MAX_LENGTH_WITH_AND) failed.add('too_long_with_and');
  else if (length > MAX_LENGTH) failed.add('too_long');

  if ([...q].filter((c) => c === '"').length % 2 === 1) failed.add('unbalanced_quotes');

  let depth = 0;
  for (const lx of all) {
    if (lx.kind === 'open') depth++;
    if (lx.kind === 'close' && --depth < 0) {
      failed.add('unbalanced_brackets');
      depth = 0;
    }
  }
  if (depth > 0) failed.add('unbalanced_brackets');

  for (const lx of all) {
    if (lx.kind === 'word') {
      if (!lx.tilde && isLowercaseOperator(lx.text)) failed.add('lowercase_operator');
      if (lx.noise) continue;
      checkTokens(lx.text, failed);
      if (lx.tilde && !validSimilarity(lx)) failed.add('bad_similarity');
    } else if (lx.kind === 'phrase') {
      if (!hasSearchable(lx.text)) failed.add('empty_quotes');
      checkTokens(lx.text, failed);
      if (lx.tilde && !validProximity(lx)) failed.add('bad_proximity');
    }
  }

  checkOperators(sig, failed);

  const { root, tooDeep } = parse(sig);
  if (tooDeep) failed.add('too_deep');
  else if (!root || !hasPositiveClause(root)) failed.add('no_positive_clause');
  return issuesOf(failed, mode);
}

/** Whether any issue blocks the search. */
export const hasError = (issues: Issue[]): boolean => issues.some((i) => i.severity === 'error');
