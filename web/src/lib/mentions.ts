// Mentions in case comments (docs/cases-api.md): "@" and a colleague's username, else e-mail.
import type { OrganizationMember } from '../api/settings';

/** The handle a comment mentions a member by: their username, else their e-mail. */
export function handleOf(member: Pick<OrganizationMember, 'username' | 'email'>): string {
  return member.username || member.email;
}

/** The @word being typed just before the caret, if any, with where its @ stands. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|[^\w@.+-])@([\w.+@-]*)$/u.exec(text.slice(0, caret));
  const query = match?.[2];
  if (query === undefined) return null;
  return { start: caret - query.length - 1, query: query.toLowerCase() };
}
