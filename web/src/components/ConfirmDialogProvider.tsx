import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { type ReactNode, useCallback, useId, useState } from 'react';
import { ConfirmContext, type ConfirmOptions } from '../hooks/useConfirm';
import { readCookie, setNeverExpiringCookie } from '../lib/cookies';

const icons = {
  info: <InfoOutlined color="info" />,
  warning: <WarningAmberOutlined color="warning" />,
  success: <CheckCircleOutlined color="success" />,
  error: <ErrorOutlined color="error" />,
};

export function ConfirmDialogProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const [open, setOpen] = useState(false);
  const [doNotShowAgain, setDoNotShowAgain] = useState(false);
  const titleId = useId();
  const textId = useId();

  const confirm = useCallback((next: ConfirmOptions) => {
    if (next.doNotShowAgainCookie && readCookie(next.doNotShowAgainCookie) !== undefined) {
      next.onAccept?.();
      return;
    }
    setDoNotShowAgain(false);
    setOptions(next);
    setOpen(true);
  }, []);

  const finish = (callback: (() => void) | undefined) => {
    if (doNotShowAgain && options?.doNotShowAgainCookie) setNeverExpiringCookie(options.doNotShowAgainCookie);
    setOpen(false);
    callback?.();
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog
        open={open}
        onClose={() => finish(options?.onCancel)}
        aria-labelledby={titleId}
        aria-describedby={textId}
        slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
      >
        <DialogTitle id={titleId}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            {options?.icon && icons[options.icon]}
            <span>{options?.title}</span>
          </Stack>
        </DialogTitle>
        <DialogContent>
          <DialogContentText id={textId}>{options?.text}</DialogContentText>
          {options?.doNotShowAgainCookie && (
            <FormControlLabel
              sx={{ mt: 1 }}
              control={
                <Checkbox checked={doNotShowAgain} onChange={(event) => setDoNotShowAgain(event.target.checked)} />
              }
              label="Do not show again"
            />
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => finish(options?.onCancel)}>{options?.cancelLabel ?? 'Cancel'}</Button>
          <Button variant="contained" onClick={() => finish(options?.onAccept)}>
            {options?.acceptLabel ?? 'OK'}
          </Button>
        </DialogActions>
      </Dialog>
    </ConfirmContext.Provider>
  );
}
