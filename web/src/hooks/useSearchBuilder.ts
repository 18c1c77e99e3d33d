import { createContext, useContext } from 'react';
import type { MonitorSearch } from '../api/monitor';
import type { SearchForm } from '../lib/searchForm';

/** What another screen (Beacon, Locate) fills in when it opens the builder on a new search. */
export type SearchPrefill = Partial<
  Pick<
    SearchForm,
    | 'keywords'
    | 'author'
    | 'boards'
    | 'providers'
    | 'startDate'
    | 'endDate'
    | 'location'
    | 'locationBounds'
    | 'searchFilterIds'
  >
>;

export interface SearchBuilder {
  /** A new search; from a group page, in that group; from a search screen, with its terms. */
  create: (options?: { groupId?: number; prefill?: SearchPrefill }) => void;
  edit: (search: MonitorSearch) => void;
  /** A new search prefilled from an existing one. */
  duplicate: (search: MonitorSearch) => void;
}

export const SearchBuilderContext = createContext<SearchBuilder | null>(null);

export function useSearchBuilder(): SearchBuilder {
  const builder = useContext(SearchBuilderContext);
  if (!builder) throw new Error('useSearchBuilder needs a SearchBuilderProvider');
  return builder;
}
