// Shared by the dashboard's charts.

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const SERIES_COLOURS = ['#4c7bd9', '#e07b39', '#3aa17e', '#c9489b', '#8f6ad8', '#c4a228', '#2c9fb8', '#d9534f'];

const DAY_MS = 24 * 60 * 60 * 1000;

/** The last `count` UTC days up to today, oldest first, as YYYY-MM-DD: every one, with results or not. */
export function lastDays(count: number, now = Date.now()): string[] {
  return Array.from({ length: count }, (_, i) => new Date(now - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}
