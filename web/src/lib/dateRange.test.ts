import { describe, expect, it } from 'vitest';
import {
  dateRangeProblem,
  type DateShortcut,
  formatDateTime,
  fromLocalInput,
  shortcutRange,
  toLocalInput,
} from './dateRange';

// Local-time dates, so the tests hold in any time zone.
const wednesday = new Date(2026, 2, 4, 15, 30); // Wed 4 March 2026
const sunday = new Date(2026, 2, 8, 10, 0); // Sun 8 March 2026

describe('shortcuts', () => {
  it.each<{ shortcut: DateShortcut; now: Date; start: Date; end: Date }>([
    { shortcut: 'today', now: wednesday, start: new Date(2026, 2, 4), end: new Date(2026, 2, 4, 23, 59, 59) },
    { shortcut: 'thisWeek', now: wednesday, start: new Date(2026, 2, 2), end: new Date(2026, 2, 8, 23, 59, 59) },
    // A Sunday ends the week that began on Monday.
    { shortcut: 'thisWeek', now: sunday, start: new Date(2026, 2, 2), end: new Date(2026, 2, 8, 23, 59, 59) },
    { shortcut: 'nextWeek', now: sunday, start: new Date(2026, 2, 9), end: new Date(2026, 2, 15, 23, 59, 59) },
    { shortcut: 'thisMonth', now: wednesday, start: new Date(2026, 2, 1), end: new Date(2026, 2, 31, 23, 59, 59) },
    { shortcut: 'nextMonth', now: wednesday, start: new Date(2026, 3, 1), end: new Date(2026, 3, 30, 23, 59, 59) },
    {
      shortcut: 'nextMonth',
      now: new Date(2026, 11, 15),
      start: new Date(2027, 0, 1),
      end: new Date(2027, 0, 31, 23, 59, 59),
    },
    { shortcut: 'thisYear', now: wednesday, start: new Date(2026, 0, 1), end: new Date(2026, 11, 31, 23, 59, 59) },
  ])('$shortcut from $now', ({ shortcut, now, start, end }) => {
    expect(shortcutRange(shortcut, now)).toEqual({ startDate: start, endDate: end });
  });
});

describe('format', () => {
  it.each([
    { date: new Date(2026, 2, 4, 9, 5), want: 'Mar 4 2026, 9:05 am' },
    { date: new Date(2026, 11, 31, 0, 0), want: 'Dec 31 2026, 12:00 am' },
    { date: new Date(2026, 0, 1, 12, 30), want: 'Jan 1 2026, 12:30 pm' },
    { date: new Date(2026, 6, 14, 23, 59), want: 'Jul 14 2026, 11:59 pm' },
  ])('$want', ({ date, want }) => {
    expect(formatDateTime(date)).toBe(want);
  });

  it('round-trips the datetime-local input value', () => {
    const date = new Date(2026, 2, 4, 9, 5);
    expect(toLocalInput(date)).toBe('2026-03-04T09:05');
    expect(fromLocalInput('2026-03-04T09:05')).toEqual(date);
    expect(fromLocalInput('')).toBeNull();
  });
});

describe('range rules', () => {
  const now = wednesday;
  it.each([
    { name: 'open range', startDate: null, endDate: null, ok: true },
    { name: 'end in the future', startDate: null, endDate: new Date(2026, 2, 5), ok: true },
    { name: 'end in the past', startDate: null, endDate: new Date(2026, 2, 3), ok: false },
    { name: 'scheduled', startDate: new Date(2026, 2, 10), endDate: new Date(2026, 2, 12), ok: true },
    {
      name: 'scheduled ending before it starts',
      startDate: new Date(2026, 2, 10),
      endDate: new Date(2026, 2, 9),
      ok: false,
    },
    { name: 'start equals end', startDate: new Date(2026, 2, 10), endDate: new Date(2026, 2, 10), ok: false },
  ])('$name', ({ startDate, endDate, ok }) => {
    expect(dateRangeProblem({ startDate, endDate }, now) === null).toBe(ok);
  });
});
