// Translations under review before they join a search: per keyword, each removable.

export interface ReviewItem {
  id: string;
  /** What is added to the search. */
  phrase: string;
  /** Said after the phrase when several languages are listed. */
  note?: string;
}

export interface ReviewRow {
  keyword: string;
  items: ReviewItem[];
  /** Said when the keyword has nothing to add. */
  empty: string;
}

/** The rows without one item; a row the user emptied says so rather than its first reason. */
export function withoutItem(rows: readonly ReviewRow[], id: string): ReviewRow[] {
  return rows.map((row) => {
    const items = row.items.filter((i) => i.id !== id);
    if (items.length === row.items.length) return row;
    return { ...row, items, empty: items.length === 0 ? 'None kept: it stays as it is' : row.empty };
  });
}
