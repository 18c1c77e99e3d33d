import type { FilterList, FilterListChange, PrebuiltFilterList } from '../api/filters';

export function testFilterList(id: number, overrides: Partial<FilterList> = {}): FilterList {
  return {
    id,
    name: `List ${id}`,
    type: 'keyword',
    inclusion: false,
    kind: 'keyword_exclusion',
    keywords: [
      { id: 1, value: 'giveaway' },
      { id: 2, value: 'promo code' },
    ],
    authors: [],
    objects: [],
    owner: { id: 1, email: 'ana@example.com', username: 'ana' },
    userPermissionLevel: 'owner',
    searches: [],
    createdAt: 1_700_000_000,
    updatedAt: 1_700_000_000,
    ...overrides,
  };
}

export function testChange(list: FilterList, message?: string): FilterListChange {
  return { data: list, message, stripped: { duplicates: 0, tooShort: 0, tooLong: 0, unsearchable: 0 } };
}

export const testPrebuilt: PrebuiltFilterList = {
  id: 'spam',
  name: 'Spam and promotions',
  description: 'Leaves out giveaways and promotions.',
  type: 'keyword',
  inclusion: false,
  kind: 'keyword_exclusion',
  keywords: ['giveaway', 'discount code', 'free followers'],
  authors: [],
  objects: [],
};
