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
  saving,
  onClose,
  onSave,
}: {
  name: string;
  /** Whether onSave's change is under way. */
  saving: boolean;
  onClose: () => void;
  /** Resolves once the name is saved; rejects with the failure, shown here. */
  onSave: (name: string) => Promise<unknown>;
}) {
  const titleId = useId();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === '') {
      setError(NAME_REQUIRED);
      return;
    }
    onSave(value.trim()).then(onClose, (failure: unknown) =>
      setError(failure instanceof Error ? failure.message : 'Something went wrong. Please try again.'),
    );
  };
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <form onSubmit={submit} noValidate>
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
