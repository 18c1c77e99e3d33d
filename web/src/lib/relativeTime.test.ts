import { describe, expect, it } from 'vitest';
import { relativeTime } from './relativeTime';

const now = new Date(2026, 2, 10, 12, 0, 0);

describe('relativeTime', () => {
  it.each([
    { ago: 10 * 1000, want: 'just now' },
    { ago: 5 * 60 * 1000, want: '5 min ago' },
    { ago: 3 * 3600 * 1000, want: '3 h ago' },
    { ago: 2 * 86400 * 1000, want: '2 d ago' },
    // A clock a little ahead of the server still reads as now.
    { ago: -5 * 1000, want: 'just now' },
  ])('$want', ({ ago, want }) => {
    expect(relativeTime(new Date(now.getTime() - ago), now)).toBe(want);
  });

  it('gives the date after a week', () => {
    expect(relativeTime(new Date(2026, 1, 1), now)).toBe('1 Feb');
    expect(relativeTime(new Date(2025, 1, 1), now)).toBe('1 Feb 2025');
  });
});
