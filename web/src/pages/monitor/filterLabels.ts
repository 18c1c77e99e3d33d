import type { FilterKind, PermissionLevel } from '../../api/filters';

export const kindLabels: Record<FilterKind, string> = {
  keyword_inclusion: 'Keyword inclusion',
  keyword_exclusion: 'Keyword exclusion',
  author_exclusion: 'Author exclusion',
  object_detection: 'Object detection',
};

export const levelLabels: Record<PermissionLevel, string> = { owner: 'Owner', edit: 'Can edit', view: 'Can view' };

export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
