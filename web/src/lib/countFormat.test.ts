import { describe, expect, it } from 'vitest';
import { countOf, formatCount, resultTotal } from './countFormat';

describe('formatCount', () => {
  const cases: [number, string][] = [
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1_000, '1.0k'],
    [1_249, '1.2k'],
    [1_250, '1.2k'],
    [34_567, '34.5k'],
    [999_999, '999.9k'],
    [1_000_000, '1.0M'],
    [3_456_789, '3.4M'],
    [1_250_000_000, '1250.0M'],
  ];
  for (const [count, want] of cases) {
    it(`formats ${count} as ${want}`, () => {
      expect(formatCount(count)).toBe(want);
    });
  }
});

describe('countOf', () => {
  it.each([
    [0, '0 matches'],
    [1, '1 match'],
    [2, '2 matches'],
    [1234, '1.2k matches'],
  ])('%d', (count, want) => {
    expect(countOf(count, 'match', 'matches')).toBe(want);
  });
});

describe('resultTotal', () => {
  it.each([
    [130, false, '130 results'],
    [1, false, '1 result'],
    [0, false, '0 results'],
    [1001, true, 'More than 1.0k results'],
    [40, true, 'More than 40 results'],
    [0, true, 'No results yet among the newest posts searched; load more to search older ones'],
  ])('%d, estimate %s', (total, isEstimate, want) => {
    expect(resultTotal(total, isEstimate)).toBe(want);
  });
  it('says where it searched', () => {
    expect(resultTotal(3, false, 'Social')).toBe('3 results in Social');
    expect(resultTotal(0, true, 'Social')).toBe(
      'No results yet among the newest posts searched in Social; load more to search older ones',
    );
  });
});
