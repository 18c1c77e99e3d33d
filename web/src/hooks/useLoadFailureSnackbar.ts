import { useEffect } from 'react';
import { useSnackbar } from './useSnackbar';

/**
 * Says in an error-colour snackbar that a load failed (search-side.md section 8: organization
 * settings and invitations), once per failure; the screen shows the details where the data
 * would be.
 */
export function useLoadFailureSnackbar(error: Error | null, text: string) {
  const snackbar = useSnackbar();
  useEffect(() => {
    if (error) snackbar.show({ text, color: 'error' });
  }, [error, text, snackbar]);
}
