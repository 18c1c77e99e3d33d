import type { UseMutationResult } from '@tanstack/react-query';
import { useConfirm } from './useConfirm';
import { useSnackbar } from './useSnackbar';

/**
 * Asks before deleting, with `text` saying what deleting does, then runs the delete mutation
 * and says how it went: the one delete flow of the tables with row actions.
 */
export function useConfirmDelete<T>(remove: UseMutationResult<unknown, Error, T>, text: string) {
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  return (variables: T, name: string) =>
    confirm({
      title: `Delete “${name}”?`,
      text,
      icon: 'warning',
      acceptLabel: 'Delete',
      onAccept: () =>
        remove.mutate(variables, {
          onSuccess: () => snackbar.show({ color: 'success', text: `“${name}” deleted` }),
          onError: (error) => snackbar.show({ color: 'error', text: error.message }),
        }),
    });
}
