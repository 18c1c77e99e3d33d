import { describe, expect, it } from 'vitest';
import { operatorMarks } from './operatorMarks';

describe('operatorMarks', () => {
  it('marks capital operators, lowercase ones, phrases and exclusions', () => {
    const kinds = operatorMarks('bridge AND "river crossing" or -ferry')
      .filter((m) => m.text.trim() !== '')
      .map((m) => `${m.text}:${m.kind}`);
    expect(kinds).toEqual([
      'bridge:plain',
      'AND:operator',
      '"river crossing":phrase',
      'or:lowercase',
      '-ferry:exclusion',
    ]);
  });

  it('keeps operators inside quotes as part of the phrase', () => {
    expect(operatorMarks('"salt and pepper"')).toEqual([{ text: '"salt and pepper"', kind: 'phrase' }]);
  });
});
