import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { fieldError } from '../../api/fieldError';
import { useCreateCase } from '../../hooks/useCaseQueries';

/** Starts a case: a name and, if the analyst knows it yet, what it is about. */
export function NewCaseDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useCreateCase();
  const submit = () =>
    create.mutate(
      { name, description },
      {
        onSuccess: (id) => {
          setName('');
          setDescription('');
          onCreated(id);
        },
      },
    );
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="new-case-title">
      <DialogTitle id="new-case-title">New case</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="new-case-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <TextField
            label="Name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            autoFocus
            error={fieldError(create.error, 'name') !== undefined}
            helperText={fieldError(create.error, 'name')}
          />
          <TextField
            label="Description"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            multiline
            minRows={3}
            error={fieldError(create.error, 'description') !== undefined}
            helperText={fieldError(create.error, 'description') ?? 'What the case is about; you can change it later.'}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" form="new-case-form" variant="contained" disabled={create.isPending}>
          Create
        </Button>
      </DialogActions>
    </Dialog>
  );
}
