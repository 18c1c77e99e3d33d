import { describe, expect, it } from 'vitest';
import { foldToken, highlight, termsOf, tokenize } from './highlight';

const marked = (text: string, query: string) =>
  highlight(text, termsOf(query))
    .filter((s) => s.hit)
    .map((s) => s.text);

describe('analysis', () => {
  it.each([
    ['Café', 'cafe'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['ÉCOLE', 'ecole'],
    ['ﬁne', 'fine'],
  ])('folds %s to %s', (token, folded) => {
    expect(foldToken(token)).toBe(folded);
  });

  it('cuts tokens like the analyzer', () => {
    expect(tokenize('#osint @Analyst e-mail snake_case 東京').map((t) => t.folded)).toEqual([
      'osint',
      'analyst',
      'e',
      'mail',
      'snake_case',
      '東',
      '京',
    ]);
  });
});

describe('terms of a query', () => {
  it('keeps positive words and phrases only', () => {
    expect(termsOf('bridge AND (protest OR "road block") -spam -"fake news" crash~1').map((t) => t.length)).toEqual([
      1, 1, 2, 1,
    ]);
  });
});

describe('highlight', () => {
  it.each([
    { name: 'a word, any case and accent', text: 'Protest at the CAFÉ today', query: 'cafe', want: ['CAFÉ'] },
    { name: 'a hashtag', text: 'Latest #OSINT news', query: 'osint', want: ['OSINT'] },
    {
      name: 'a phrase in order',
      text: 'the road block ahead; block road',
      query: '"road block"',
      want: ['road block'],
    },
    { name: 'a wildcard', text: 'Protesters protested', query: 'protest*', want: ['Protesters protested'] },
    { name: 'a single-character wildcard', text: 'colour color', query: 'colo?r', want: ['colour'] },
    { name: 'an excluded word is not lit', text: 'spam and eggs', query: 'eggs -spam', want: ['eggs'] },
    { name: 'operators are not words', text: 'this AND that OR', query: 'this AND that', want: ['this', 'that'] },
    { name: 'nothing matched', text: 'quiet day', query: 'storm', want: [] },
  ])('$name', ({ text, query, want }) => {
    expect(marked(text, query)).toEqual(want);
  });

  it('keeps the whole text', () => {
    const text = 'A bridge, a river — and the bridge.';
    expect(
      highlight(text, termsOf('bridge'))
        .map((s) => s.text)
        .join(''),
    ).toBe(text);
  });
});
