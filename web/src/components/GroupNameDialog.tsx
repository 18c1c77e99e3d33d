import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { type FormEvent, useId, useState } from 'react';
import { MAX_NAME_LENGTH } from '../lib/query';

const NAME_REQUIRED = 'Group Name is required';

/** Renames a group. */
export function GroupNameDialog({
  name,
  onClose,
  onSave,
}: {
  name: string;
  onClose: () => void;
  onSave: (name: string) => Promise<void>;
}) {
  const titleId = useId();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === '') {
      setError(NAME_REQUIRED);
      return;
    }
    setSaving(true);
    try {
      await onSave(value.trim());
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Something went wrong. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>Rename group</DialogTitle>
        <DialogContent>
          <TextField
            label="Group name"
            required
            autoFocus
            fullWidth
            margin="dense"
            value={value}
            disabled={saving}
            onChange={(event) => {
              setValue(event.target.value);
              setError(null);
            }}
            error={error !== null}
            helperText={error ?? `${value.length}/${MAX_NAME_LENGTH}`}
            slotProps={{ htmlInput: { maxLength: MAX_NAME_LENGTH } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
