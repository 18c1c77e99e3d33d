// Keyword parsing for display and the keyword summary (monitor-area.md section 5), the browser
// port of internal/query/keywords.go.

import { isSpace } from './analysis';

/**
 * Items separated by commas and by the word OR (outside quotes); the word AND and brackets
 * dropped; each item a list of words, a quoted phrase (with any ~N after it) counting as one word.
 * Empty and repeated items are dropped.
 */
function keywordGroups(q: string): string[][] {
  const groups: string[][] = [];
  const seen = new Set<string>();
  let words: string[] = [];
  let word = '';
  let inQuote = false;
  const flushItem = () => {
    const item = words.join(' ');
    if (item !== '' && !seen.has(item)) {
      seen.add(item);
      groups.push(words);
    }
    words = [];
  };
  const flushWord = () => {
    if (word === 'OR') flushItem();
    else if (word !== '' && word !== 'AND') words.push(word);
    word = '';
  };
  for (const ch of q) {
    if (inQuote) {
      word += ch;
      inQuote = ch !== '"';
    } else if (ch === '"') {
      word += ch;
      inQuote = true;
    } else if (isSpace(ch) || ch === '(' || ch === ')') {
      flushWord();
    } else if (ch === ',') {
      flushWord();
      flushItem();
    } else {
      word += ch;
    }
  }
  flushWord();
  flushItem();
  return groups;
}

/** The keyword list shown for a query. */
export function keywordList(q: string): string[] {
  return keywordGroups(q).map((g) => g.join(' '));
}

/** The keyword summary: each keyword-list item's words joined with AND, in brackets, joined with OR. */
export function keywordSummary(q: string): string {
  return keywordGroups(q)
    .map((g) => `(${g.join(' AND ')})`)
    .join(' OR ');
}
