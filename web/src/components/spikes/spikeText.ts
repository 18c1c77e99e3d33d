// How spikes and trends read in the app.

/** A spike's subject: its search, or one of its data sources or places. */
export function spikeSubject(kind: string, name: string, searchName?: string): string {
  if (kind === 'provider') return `${searchName ? `${searchName} · ` : ''}${name}`;
  if (kind === 'place') return `${searchName ? `${searchName} · ` : ''}near ${name}`;
  return searchName ?? 'All matches';
}

/** "Nov 28, 03:00–03:30 UTC" for a spike's Unix-second bounds. */
export function spikeWhen(start: number, end: number): string {
  const day = new Date(start * 1000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const time = (s: number) =>
    new Date(s * 1000).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${day}, ${time(start)}–${time(end)} UTC`;
}

/** "61 posts, about 2 expected" */
export function spikeCounts(count: number, expected: number): string {
  return `${count} post${count === 1 ? '' : 's'}, about ${Math.round(expected)} expected`;
}
