import { describe, expect, it } from 'vitest';
import { advancedQuery, breachQuery } from './advancedQuery';

describe('advancedQuery', () => {
  it('writes each field in the query language', () => {
    expect(
      advancedQuery({
        allWords: 'flood bridge',
        exactPhrase: 'river crossing',
        anyWords: 'storm, rain',
        noneWords: 'ferry -boat',
      }),
    ).toBe('flood bridge "river crossing" (storm OR rain) -ferry -boat');
  });

  it('leaves out empty fields and brackets a single alternative not at all', () => {
    expect(advancedQuery({ allWords: '', exactPhrase: ' ', anyWords: 'storm', noneWords: '' })).toBe('storm');
  });
});

describe('breachQuery', () => {
  it.each([
    ['ana@example.com', { query: '"ana@example.com"' }],
    ['example.co.uk', { query: '"example.co.uk"' }],
    ['', { error: 'Email or domain is required' }],
    ['ana@example', { error: 'Invalid email address' }],
    ['not a domain', { error: 'Invalid domain' }],
    ['localhost', { error: 'Invalid domain' }],
  ])('%j', (input, want) => expect(breachQuery(input)).toEqual(want));
});
