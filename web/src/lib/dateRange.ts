// The search builder's date range: the six shortcuts (weeks start on Monday), the display format
// 'mmm d yyyy, h:MM tt', and the rules of monitor-area.md section 5.

export interface DateRange {
  startDate: Date | null;
  endDate: Date | null;
}

export type DateShortcut = 'today' | 'thisWeek' | 'thisMonth' | 'thisYear' | 'nextWeek' | 'nextMonth';

export const DATE_SHORTCUTS: { id: DateShortcut; label: string }[] = [
  { id: 'today', label: 'Today' },
  { id: 'thisWeek', label: 'This week' },
  { id: 'thisMonth', label: 'This month' },
  { id: 'thisYear', label: 'This year' },
  { id: 'nextWeek', label: 'Next week' },
  { id: 'nextMonth', label: 'Next month' },
];

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function endOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate(), 23, 59, 59);
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/** The Monday starting the week of date. */
function mondayOf(date: Date): Date {
  const sinceMonday = (date.getDay() + 6) % 7;
  return addDays(startOfDay(date), -sinceMonday);
}

/** The whole period a shortcut names, in local time, from its first second to its last. */
export function shortcutRange(shortcut: DateShortcut, now: Date): { startDate: Date; endDate: Date } {
  const year = now.getFullYear();
  const month = now.getMonth();
  switch (shortcut) {
    case 'today':
      return { startDate: startOfDay(now), endDate: endOfDay(now) };
    case 'thisWeek': {
      const monday = mondayOf(now);
      return { startDate: monday, endDate: endOfDay(addDays(monday, 6)) };
    }
    case 'nextWeek': {
      const monday = addDays(mondayOf(now), 7);
      return { startDate: monday, endDate: endOfDay(addDays(monday, 6)) };
    }
    case 'thisMonth':
      return { startDate: new Date(year, month, 1), endDate: endOfDay(new Date(year, month + 1, 0)) };
    case 'nextMonth':
      return { startDate: new Date(year, month + 1, 1), endDate: endOfDay(new Date(year, month + 2, 0)) };
    case 'thisYear':
      return { startDate: new Date(year, 0, 1), endDate: endOfDay(new Date(year, 11, 31)) };
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'mmm d yyyy, h:MM tt', e.g. "Mar 4 2026, 9:05 am". */
export function formatDateTime(date: Date): string {
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const period = hours < 12 ? 'am' : 'pm';
  return `${MONTHS[date.getMonth()]} ${date.getDate()} ${date.getFullYear()}, ${hours % 12 || 12}:${minutes} ${period}`;
}

/** The value of an <input type="datetime-local"> for date, in local time. */
export function toLocalInput(date: Date | null): string {
  if (!date) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The date an <input type="datetime-local"> holds, or null when it is empty or incomplete. */
export function fromLocalInput(value: string): Date | null {
  if (value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function toUnixSeconds(date: Date | null): number | null {
  return date ? Math.floor(date.getTime() / 1000) : null;
}

export function fromUnixSeconds(seconds: number | null): Date | null {
  return seconds === null ? null : new Date(seconds * 1000);
}

/**
 * What is wrong with the range, or null when nothing is: the end may not lie in the past (for a
 * scheduled search, starting later, it must also come after the start), and start and end differ.
 */
export function dateRangeProblem({ startDate, endDate }: DateRange, now: Date): string | null {
  if (endDate && endDate.getTime() <= now.getTime()) {
    return 'The end date is invalid: it must be in the future.';
  }
  if (startDate && endDate) {
    if (startDate.getTime() === endDate.getTime()) return 'The start and end dates must differ.';
    if (endDate.getTime() < startDate.getTime()) return 'The end date is invalid: it must come after the start date.';
  }
  return null;
}
