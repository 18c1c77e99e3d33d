import { type ReactNode, useState } from 'react';
import { LimitDialogContext } from '../hooks/useFailureReport';
import type { AssetLimit } from '../lib/assetLimit';
import { AssetLimitDialog } from './AssetLimitDialog';

/** Holds the one limit dialog, so a limit reached anywhere shows the same dialog. */
export function LimitDialogProvider({ children }: { children: ReactNode }) {
  const [limit, setLimit] = useState<AssetLimit | null>(null);
  return (
    <LimitDialogContext.Provider value={setLimit}>
      {children}
      {/* Only while open: the dialog reads the signed-in user's support address. */}
      {limit && <AssetLimitDialog limit={limit} onClose={() => setLimit(null)} />}
    </LimitDialogContext.Provider>
  );
}
