import { createContext, useContext } from 'react';
import type { ExportReady } from '../api/exports';

export interface ExportToasts {
  /** An export was requested: the in-progress toast shows until it is ready or fails. */
  started: (exportId: string) => void;
  /** The live channel said an export is ready. */
  ready: (payload: ExportReady) => void;
}

export const ExportToastContext = createContext<ExportToasts | null>(null);

export function useExportToasts(): ExportToasts {
  const toasts = useContext(ExportToastContext);
  if (!toasts) throw new Error('useExportToasts needs an ExportToastProvider');
  return toasts;
}
