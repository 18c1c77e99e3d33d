/** A piece of a typed query as the help panel shows it. */
export interface Mark {
  text: string;
  kind: 'operator' | 'lowercase' | 'phrase' | 'exclusion' | 'plain';
}

/**
 * Cuts a query into the pieces the help panel highlights: AND and OR (operators only in capitals),
 * lowercase and/or (which search as words, so they are flagged), quoted phrases and exclusions.
 */
export function operatorMarks(query: string): Mark[] {
  const marks: Mark[] = [];
  for (const piece of query.split(/("[^"]*"?|\s+)/)) {
    if (piece === '') continue;
    let kind: Mark['kind'] = 'plain';
    if (piece.startsWith('"')) kind = 'phrase';
    else if (piece === 'AND' || piece === 'OR') kind = 'operator';
    else if (/^(and|or)$/i.test(piece)) kind = 'lowercase';
    else if (piece.startsWith('-') && piece.length > 1) kind = 'exclusion';
    marks.push({ text: piece, kind });
  }
  return marks;
}
