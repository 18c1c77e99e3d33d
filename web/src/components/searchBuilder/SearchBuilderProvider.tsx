import { type ReactNode, useMemo, useState } from 'react';
import type { MonitorSearch } from '../../api/monitor';
import { type SearchBuilder, SearchBuilderContext, type SearchPrefill } from '../../hooks/useSearchBuilder';
import { SearchBuilderDialog } from './SearchBuilderDialog';

export type BuilderRequest =
  | { mode: 'create'; groupId?: number; prefill?: SearchPrefill }
  | { mode: 'edit'; search: MonitorSearch }
  | { mode: 'duplicate'; search: MonitorSearch };

/** Owns the one search builder of the app; every opening starts from a fresh wizard. */
export function SearchBuilderProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<{ id: number; request: BuilderRequest; open: boolean } | null>(null);
  const builder = useMemo<SearchBuilder>(() => {
    const open = (next: BuilderRequest) =>
      setRequest((current) => ({ id: (current?.id ?? 0) + 1, request: next, open: true }));
    return {
      create: (options) => open({ mode: 'create', groupId: options?.groupId, prefill: options?.prefill }),
      edit: (search) => open({ mode: 'edit', search }),
      duplicate: (search) => open({ mode: 'duplicate', search }),
    };
  }, []);
  return (
    <SearchBuilderContext.Provider value={builder}>
      {children}
      {/* A new key per opening resets every step and field: closing the wizard resets it. */}
      {request && (
        <SearchBuilderDialog
          key={request.id}
          request={request.request}
          open={request.open}
          onClose={() => setRequest((current) => current && { ...current, open: false })}
          onClosed={() => setRequest((current) => (current?.open ? current : null))}
        />
      )}
    </SearchBuilderContext.Provider>
  );
}
