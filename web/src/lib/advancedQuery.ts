/** The advanced search dialog's fields. */
export interface AdvancedFields {
  allWords: string;
  exactPhrase: string;
  anyWords: string;
  noneWords: string;
}

const words = (text: string) => text.split(/[\s,]+/).filter((w) => w !== '');

/**
 * The query text the advanced fields stand for: all words joined (AND), the phrase quoted, the
 * alternatives bracketed with OR, the excluded words each with a dash.
 */
export function advancedQuery({ allWords, exactPhrase, anyWords, noneWords }: AdvancedFields): string {
  const parts = [...words(allWords)];
  const phrase = exactPhrase.replaceAll('"', '').trim();
  if (phrase !== '') parts.push(`"${phrase}"`);
  const any = words(anyWords);
  if (any.length === 1) parts.push(any[0]!);
  if (any.length > 1) parts.push(`(${any.join(' OR ')})`);
  parts.push(...words(noneWords).map((w) => `-${w.replace(/^-+/, '')}`));
  return parts.join(' ');
}

const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const EMAIL = /^[^\s@"]+@[^\s@"]+$/;

/**
 * Checks what the data-breach search was given: an e-mail address or a domain. Returns the
 * query to search for, or the message to show.
 */
export function breachQuery(input: string): { query: string } | { error: string } {
  const value = input.trim();
  if (value === '') return { error: 'Email or domain is required' };
  if (value.includes('@')) {
    const domain = value.slice(value.lastIndexOf('@') + 1);
    if (!EMAIL.test(value) || !DOMAIN.test(domain)) return { error: 'Invalid email address' };
    return { query: `"${value}"` };
  }
  if (!DOMAIN.test(value)) return { error: 'Invalid domain' };
  return { query: `"${value}"` };
}
