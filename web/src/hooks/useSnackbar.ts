import { createContext, useContext } from 'react';

export const SNACKBAR_AUTO_CLOSE_MS = 2000;

export interface SnackbarMessage {
  text: string;
  color?: 'success' | 'info' | 'warning' | 'error';
  /** How long the message stays, in milliseconds; 2000 unless given. */
  timeout?: number;
  /** Stays until the user closes it. */
  persistent?: boolean;
  /** Keeps this message up for that many milliseconds by dropping any message shown meanwhile. */
  lockFor?: number;
}

export interface SnackbarService {
  /** Shows the message; false when a locked message made it drop. */
  show: (message: SnackbarMessage) => boolean;
}

export const SnackbarContext = createContext<SnackbarService | null>(null);

export function useSnackbar(): SnackbarService {
  const service = useContext(SnackbarContext);
  if (!service) throw new Error('useSnackbar needs a SnackbarProvider');
  return service;
}
