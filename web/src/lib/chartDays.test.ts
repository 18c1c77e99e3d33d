import { describe, expect, it } from 'vitest';
import { lastDays } from './chartDays';

describe('lastDays', () => {
  it('gives every UTC day of the window, oldest first, ending today', () => {
    const days = lastDays(30, Date.parse('2026-03-02T23:30:00Z'));
    expect(days).toHaveLength(30);
    expect(days[0]).toBe('2026-02-01');
    expect(days).toContain('2026-02-28');
    expect(days.at(-1)).toBe('2026-03-02');
  });
});
