import { createContext, useContext } from 'react';
import type { MonitorSearch } from '../api/monitor';

export interface SearchBuilder {
  /** A new search; from a group page, in that group. */
  create: (options?: { groupId?: number }) => void;
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
