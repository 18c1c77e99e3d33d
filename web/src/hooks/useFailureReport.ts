import { createContext, useCallback, useContext } from 'react';
import { type AssetLimit, assetLimitOf } from '../lib/assetLimit';
import { useSnackbar } from './useSnackbar';

/** Opens the one limit dialog (Asset Limit Reached, Data Limits Reached) over any screen. */
export const LimitDialogContext = createContext<((limit: AssetLimit) => void) | null>(null);

/** Opens the limit dialog with a limit the caller found in a failure (assetLimitOf). */
export function useLimitDialog() {
  const showLimit = useContext(LimitDialogContext);
  if (!showLimit) throw new Error('useLimitDialog needs a LimitDialogProvider');
  return showLimit;
}

/**
 * Reports a failed change: an organization's limit (asset, cap or monthly data) in the limit
 * dialog the spec asks for (monitor-area.md section 8), anything else in an error snackbar.
 */
export function useFailureReport() {
  const showLimit = useLimitDialog();
  const snackbar = useSnackbar();
  return useCallback(
    (error: unknown, fallback = 'Something went wrong. Please try again.') => {
      const limit = assetLimitOf(error);
      if (limit) showLimit(limit);
      else snackbar.show({ color: 'error', text: error instanceof Error ? error.message : fallback });
    },
    [showLimit, snackbar],
  );
}
