// Sharing of groups and saved searches (monitor-area.md sections 4, 6 and 9): roles and their
// labels, the list's order, the avatar row, and when to warn.
import type { Privacy, ShareRole, SharingEntry } from '../api/monitor';

export const ROLE_LABELS: Record<ShareRole, string> = { full_access: 'can edit', read_only: 'can view' };

/** New invitees start with read-only access. */
export const DEFAULT_INVITE_ROLE: ShareRole = 'read_only';

export const PRIVACY_OPTIONS: { value: Privacy; label: string; description: string }[] = [
  { value: 'private', label: 'Private', description: 'Only you' },
  { value: 'readonly', label: 'Read only', description: 'Everyone in your organization can view' },
  { value: 'shared', label: 'Shared', description: 'Everyone in your organization can edit' },
];

/** How a person is named in sharing lists: "you" for the current user. */
export function personLabel(entry: { id: number; email: string; username: string }, currentUserId: number): string {
  if (entry.id === currentUserId) return 'you';
  return entry.email || entry.username;
}

/** Direct shares before group-inherited ones, then editors before viewers, then by name. */
export function sortSharing(entries: SharingEntry[]): SharingEntry[] {
  const roleRank = (role: ShareRole) => (role === 'full_access' ? 0 : 1);
  const name = (e: SharingEntry) => (e.name || e.email || e.username).toLowerCase();
  return [...entries].sort(
    (a, b) =>
      Number(a.fromGroup) - Number(b.fromGroup) ||
      roleRank(a.role) - roleRank(b.role) ||
      name(a).localeCompare(name(b)),
  );
}

export const MAX_AVATARS = 5;

export type AvatarItem = { kind: 'person'; entry: SharingEntry } | { kind: 'more'; count: number };

/** At most five avatars: everyone when five or fewer, else four and a "+N" for the rest. */
export function avatarItems(entries: SharingEntry[]): AvatarItem[] {
  if (entries.length <= MAX_AVATARS) return entries.map((entry) => ({ kind: 'person', entry }));
  const shown = MAX_AVATARS - 1;
  return [
    ...entries.slice(0, shown).map((entry): AvatarItem => ({ kind: 'person', entry })),
    { kind: 'more', count: entries.length - shown },
  ];
}

/** Up to two initials from a person's name, else from their e-mail or username. */
export function initials(entry: { name?: string; email: string; username: string }): string {
  // The server leaves out a name that is empty.
  const source = entry.name?.trim() || entry.email.split('@')[0] || entry.username;
  const words = source.split(/[\s._-]+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

export interface SharingChange {
  /** The entries before the change, as the server sent them. */
  before: SharingEntry[];
  /** The direct entries after the change. */
  after: { id: number; role: ShareRole }[];
  privacyBefore?: Privacy;
  privacyAfter?: Privacy;
}

/**
 * Whether saving should warn that others may change or delete the item: someone has edit access
 * (newly granted or not), or the item becomes shared with the whole organization.
 */
export function grantsEditAccess({ after, privacyBefore, privacyAfter }: SharingChange): boolean {
  if (privacyAfter === 'shared' && privacyBefore !== 'shared') return true;
  return after.some((e) => e.role === 'full_access');
}

/** Whether the change removes or lowers the current user's own direct access. */
export function restrictsSelf({ before, after }: SharingChange, currentUserId: number): boolean {
  const mine = before.find((e) => e.id === currentUserId && !e.fromGroup);
  if (!mine) return false;
  const next = after.find((e) => e.id === currentUserId);
  return !next || (mine.role === 'full_access' && next.role === 'read_only');
}
