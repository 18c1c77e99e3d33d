// The parts of the query language's text analysis the browser needs to judge a query: what is a
// space, which characters make a token, how a query word splits into tokens. Port of
// internal/query (analyze.go, runes.go); docs/query-language.md has the rules.

/** Longer runs of token characters are cut into tokens of this many characters. */
export const MAX_TOKEN_RUNES = 255;

const SPACES = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);

/** The one whitespace set of the language (the Go side lists the same characters). */
export function isSpace(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return SPACES.has(c) || (c >= 0x2000 && c <= 0x200a);
}

const TOKEN_CHAR = /^[\p{L}\p{N}\p{M}_]$/u;
const SEARCHABLE_CHAR = /^[\p{L}\p{N}_]$/u;
const IDEOGRAPH = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const HAS_SEARCHABLE_OR_WILDCARD = /[\p{L}\p{N}_*?]/u;

export const isSearchable = (ch: string): boolean => SEARCHABLE_CHAR.test(ch);

/** Whether a query word or phrase would give at least one token. */
export function hasSearchable(text: string): boolean {
  return HAS_SEARCHABLE_OR_WILDCARD.test(text.normalize('NFKD'));
}

/** Trims the language's spaces from both ends. */
export function trimSpace(s: string): string {
  const chars = [...s];
  let start = 0;
  let end = chars.length;
  while (start < end && isSpace(chars[start]!)) start++;
  while (end > start && isSpace(chars[end - 1]!)) end--;
  return chars.slice(start, end).join('');
}

/**
 * The raw (unfolded) tokens of a query word or phrase: NFKD, then runs of letters, digits, marks,
 * '_' and the wildcards '*' and '?'; Han, Hiragana and Katakana characters stand alone; a run
 * needs a letter, a digit, '_' or a wildcard to count.
 */
export function rawQueryTokens(text: string): string[] {
  const tokens: string[] = [];
  let current: string[] = [];
  let searchable = false;
  const flush = () => {
    if (current.length > 0 && searchable) tokens.push(current.join(''));
    current = [];
    searchable = false;
  };
  for (const ch of text.normalize('NFKD')) {
    const wild = ch === '*' || ch === '?';
    if (!wild && !TOKEN_CHAR.test(ch)) {
      flush();
    } else if (!wild && IDEOGRAPH.test(ch)) {
      flush();
      tokens.push(ch);
    } else {
      if (current.length === MAX_TOKEN_RUNES) flush();
      current.push(ch);
      searchable = searchable || wild || SEARCHABLE_CHAR.test(ch);
    }
  }
  flush();
  return tokens;
}
