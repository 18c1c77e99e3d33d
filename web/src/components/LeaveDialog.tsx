import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';

/** Asks what to do with unsaved changes on the way out: stay, discard and leave, or save and leave. */
export function LeaveDialog({
  open,
  title,
  text,
  saving,
  canSave = true,
  onStay,
  onDiscard,
  onSave,
}: {
  open: boolean;
  title: string;
  text: string;
  saving: boolean;
  canSave?: boolean;
  onStay: () => void;
  onDiscard: () => void;
  onSave: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onStay} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{text}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onStay}>Stay</Button>
        <Button color="error" onClick={onDiscard}>
          Discard and leave
        </Button>
        {canSave && (
          <Button variant="contained" onClick={onSave} disabled={saving}>
            Save and leave
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
