import { createContext, useContext } from 'react';

export interface ConfirmOptions {
  title: string;
  text: string;
  icon?: 'info' | 'warning' | 'success' | 'error';
  acceptLabel?: string;
  cancelLabel?: string;
  onAccept?: () => void;
  onCancel?: () => void;
  /**
   * Offers "Do not show again"; ticking it sets this cookie for good, and while the cookie
   * exists the dialog is skipped and onAccept runs at once.
   */
  doNotShowAgainCookie?: string;
}

export type Confirm = (options: ConfirmOptions) => void;

export const ConfirmContext = createContext<Confirm | null>(null);

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs a ConfirmDialogProvider');
  return confirm;
}
