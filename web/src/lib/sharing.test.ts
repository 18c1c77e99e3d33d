import { describe, expect, it } from 'vitest';
import type { SharingEntry } from '../api/monitor';
import { avatarItems, grantsEditAccess, initials, personLabel, restrictsSelf, sortSharing } from './sharing';

function entry(id: number, overrides: Partial<SharingEntry> = {}): SharingEntry {
  return {
    id,
    email: `u${id}@x.test`,
    username: `u${id}`,
    name: `User ${id}`,
    role: 'read_only',
    fromGroup: false,
    ...overrides,
  };
}

describe('labels', () => {
  it('names the current user "you", others by e-mail or username', () => {
    expect(personLabel(entry(1), 1)).toBe('you');
    expect(personLabel(entry(2), 1)).toBe('u2@x.test');
    expect(personLabel(entry(3, { email: '' }), 1)).toBe('u3');
  });

  it.each([
    { name: 'Ada Lovelace', email: 'a@x', username: 'a', want: 'AL' },
    { name: '', email: 'grace.hopper@x.test', username: 'g', want: 'GH' },
    { name: 'Plato', email: '', username: '', want: 'P' },
    // The server leaves an empty name out of the reply.
    { name: undefined, email: 'ada.king@x.test', username: 'a', want: 'AK' },
  ])('initials of $name $email', ({ want, ...person }) => {
    expect(initials(person)).toBe(want);
  });
});

describe('order', () => {
  it('puts direct before inherited, editors before viewers, then names', () => {
    const sorted = sortSharing([
      entry(1, { name: 'Zed', fromGroup: true, role: 'full_access' }),
      entry(2, { name: 'Bea' }),
      entry(3, { name: 'Cy', role: 'full_access' }),
      entry(4, { name: 'Al' }),
      entry(5, { name: 'Al', fromGroup: true }),
    ]);
    expect(sorted.map((e) => e.id)).toEqual([3, 4, 2, 1, 5]);
  });
});

describe('avatars', () => {
  const people = (n: number) => Array.from({ length: n }, (_, i) => entry(i + 1));
  it.each([
    { total: 0, persons: 0, more: undefined },
    { total: 5, persons: 5, more: undefined },
    { total: 6, persons: 4, more: 2 },
    { total: 12, persons: 4, more: 8 },
  ])('$total people show $persons avatars and +$more', ({ total, persons, more }) => {
    const items = avatarItems(people(total));
    expect(items.filter((i) => i.kind === 'person')).toHaveLength(persons);
    const extra = items.find((i) => i.kind === 'more');
    expect(extra?.kind === 'more' ? extra.count : undefined).toBe(more);
  });
});

describe('warnings', () => {
  it('warns when anyone can edit or the item becomes shared', () => {
    expect(grantsEditAccess({ before: [], after: [{ id: 2, role: 'full_access' }] })).toBe(true);
    expect(grantsEditAccess({ before: [], after: [{ id: 2, role: 'read_only' }] })).toBe(false);
    expect(grantsEditAccess({ before: [], after: [], privacyBefore: 'private', privacyAfter: 'shared' })).toBe(true);
    expect(grantsEditAccess({ before: [], after: [], privacyBefore: 'shared', privacyAfter: 'shared' })).toBe(false);
  });

  it('warns when you remove or lower your own access', () => {
    const before = [entry(1, { role: 'full_access' }), entry(2)];
    expect(restrictsSelf({ before, after: [{ id: 2, role: 'read_only' }] }, 1)).toBe(true);
    expect(restrictsSelf({ before, after: [{ id: 1, role: 'read_only' }] }, 1)).toBe(true);
    expect(restrictsSelf({ before, after: [{ id: 1, role: 'full_access' }] }, 1)).toBe(false);
    expect(restrictsSelf({ before, after: [] }, 3)).toBe(false);
  });
});
