// The post fields an export can hold, in the order the dialog lists them.
export interface ExportColumn {
  id: string;
  label: string;
  /** Checked when the dialog opens. */
  preset: boolean;
  /** Only matches have it (not Beacon results). */
  matchesOnly?: boolean;
}

export const EXPORT_COLUMNS: ExportColumn[] = [
  { id: 'id', label: 'Post id', preset: true },
  { id: 'provider', label: 'Data source', preset: true },
  { id: 'authorName', label: 'Author name', preset: true },
  { id: 'authorScreenName', label: 'Author screen name', preset: true },
  { id: 'authorUrl', label: 'Author link', preset: false },
  { id: 'titleText', label: 'Title', preset: true },
  { id: 'contentText', label: 'Text', preset: true },
  { id: 'createdAt', label: 'Published', preset: true },
  { id: 'language', label: 'Language', preset: false },
  { id: 'location', label: 'Location (lat, lon)', preset: false },
  { id: 'placeName', label: 'Place name', preset: false },
  { id: 'postLink', label: 'Post link', preset: true },
  { id: 'tags', label: 'Tags', preset: false },
  { id: 'mentionedLocations', label: 'Mentioned places', preset: false },
  { id: 'translatedText', label: 'Translated text', preset: false },
  { id: 'matchedTerms', label: 'Matched terms', preset: true, matchesOnly: true },
  { id: 'searchName', label: 'Saved search', preset: true, matchesOnly: true },
  { id: 'photo', label: 'Photo links', preset: false },
  { id: 'video', label: 'Video links', preset: false },
];

export function columnsFor(source: 'matches' | 'beacon'): ExportColumn[] {
  return EXPORT_COLUMNS.filter((c) => source === 'matches' || !c.matchesOnly);
}

export const INVALID_EMAIL = 'The provided email address is invalid';

/** An optional address: empty is fine, otherwise it must look like one. */
export function emailError(value: string): string | null {
  const v = value.trim();
  return v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? null : INVALID_EMAIL;
}

/** "29 days", "5 hours", "12 minutes", "40 seconds": how long a link stays valid. */
export function timeLeft(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size) {
      const n = Math.floor(seconds / size);
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return '0 seconds';
}
