import { describe, expect, it } from 'vitest';
import { hasError, validateQuery } from '../query';
import { queryTerms } from '../query/terms';
import { expandQuery, translatableTerms } from './expand';

const fr = new Map<string, string[]>([
  ['flood', ['inondation', 'crue']],
  ['bridge', ['pont']],
  ['bridge closed', ['pont fermé']],
  ['spam', ['pourriel']],
  ['storm', ['Storm', 'STORM']],
  ['and', ['et']],
  ['OR', ['ou']],
  ['weird', ['(x', 'AND', '-y', 'a,b']],
]);

describe('expandQuery', () => {
  it.each([
    ['flood', '(flood OR inondation OR crue)'],
    ['flood bridge', '(flood OR inondation OR crue) (bridge OR pont)'],
    ['flood AND bridge', '(flood OR inondation OR crue) AND (bridge OR pont)'],
    ['flood OR bridge', '(flood OR inondation OR crue) OR (bridge OR pont)'],
    ['"bridge closed"', '("bridge closed" OR "pont fermé")'],
    ['"bridge closed"~3 flood', '("bridge closed"~3 OR "pont fermé"~3) (flood OR inondation OR crue)'],
    ['flood -spam', '(flood OR inondation OR crue) -(spam OR pourriel)'],
    ['(flood, bridge)', '((flood OR inondation OR crue), (bridge OR pont))'],
    ['flood* bridge~1 ferry', 'flood* bridge~1 ferry'],
    ['storm', 'storm'],
    ['weird', '(weird OR "(x" OR "AND" OR "-y" OR "a,b")'],
    ['Flood', 'Flood'],
  ])('%s', (query, want) => {
    expect(expandQuery(query, fr)).toBe(want);
  });

  it.each([
    'flood',
    'flood bridge -spam',
    '"bridge closed"~3 AND flood',
    '(flood OR bridge) -"bridge closed"',
    'weird storm',
  ])('the expansion of %s is as valid as the search', (query) => {
    expect(hasError(validateQuery(query, 'saved_search'))).toBe(false);
    expect(validateQuery(expandQuery(query, fr), 'saved_search')).toEqual([]);
  });
});

describe('translatableTerms', () => {
  it('lists plain words and phrases once, not wildcards, similarities or operators', () => {
    expect(translatableTerms('flood flood* "bridge closed" AND colour~1 -spam OR flood and')).toEqual([
      'flood',
      'bridge closed',
      'spam',
    ]);
  });

  it('finds terms where they stand, in code points', () => {
    const q = '🌊 "pont fermé" -flood';
    const cs = [...q];
    expect(queryTerms(q).map((t) => cs.slice(t.start, t.end).join(''))).toEqual(['"pont fermé"', 'flood']);
  });
});
