import type { Provider } from '../api/monitor';
import type { HourCount } from '../api/stories';
import { languageName } from './translate/languages';

const HOUR_MS = 3_600_000;

/**
 * The story's posts an hour, every hour from its first to its last: the server lists only the
 * hours that have posts, and a sparkline drawn through those alone would hide the quiet hours.
 */
export function hourlyCounts(timeline: HourCount[]): number[] {
  const first = timeline[0];
  const last = timeline[timeline.length - 1];
  if (!first || !last) return [];
  const start = Date.parse(first.hour);
  const counts = new Array<number>(Math.round((Date.parse(last.hour) - start) / HOUR_MS) + 1).fill(0);
  for (const { hour, count } of timeline) counts[Math.round((Date.parse(hour) - start) / HOUR_MS)] = count;
  return counts;
}

/** A provider's display name, or its name when the caller's list does not have it. */
export function providerName(providers: Map<string, Provider>) {
  return (name: string) => providers.get(name)?.displayName ?? name;
}

/** A language's name; posts too short to tell are "Unknown". */
export function storyLanguageName(code: string): string {
  return code === '' || code === 'und' ? 'Unknown' : languageName(code);
}
