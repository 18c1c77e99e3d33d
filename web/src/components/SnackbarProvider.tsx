import Alert from '@mui/material/Alert';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { SNACKBAR_AUTO_CLOSE_MS, SnackbarContext, type SnackbarMessage } from '../hooks/useSnackbar';

interface Shown extends SnackbarMessage {
  // A new key restarts the auto-close timer even when the text repeats.
  key: number;
}

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [open, setOpen] = useState(false);
  const lockedUntil = useRef(0);
  const nextKey = useRef(0);

  const show = useCallback((message: SnackbarMessage) => {
    const now = Date.now();
    if (now < lockedUntil.current) return false;
    lockedUntil.current = message.lockFor ? now + message.lockFor : 0;
    nextKey.current += 1;
    setShown({ ...message, key: nextKey.current });
    setOpen(true);
    return true;
  }, []);

  const service = useMemo(() => ({ show }), [show]);

  const close = (_event: unknown, reason?: SnackbarCloseReason) => {
    // A click elsewhere on the page must not dismiss a message the user has to act on.
    if (reason === 'clickaway' && shown?.persistent) return;
    setOpen(false);
  };

  return (
    <SnackbarContext.Provider value={service}>
      {children}
      <Snackbar
        key={shown?.key}
        open={open}
        onClose={close}
        autoHideDuration={shown?.persistent ? null : (shown?.timeout ?? SNACKBAR_AUTO_CLOSE_MS)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          onClose={() => setOpen(false)}
          severity={shown?.color ?? 'info'}
          variant="filled"
          sx={{ minWidth: 280, alignItems: 'center' }}
        >
          {shown?.text}
        </Alert>
      </Snackbar>
    </SnackbarContext.Provider>
  );
}
