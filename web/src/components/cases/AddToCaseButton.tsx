import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useId, useState } from 'react';
import { NO_CASE_FILTER, type CaseItemInput } from '../../api/cases';
import { fieldError, formError } from '../../api/fieldError';
import { useAddCaseItem, useCasesQuery, useCreateCase } from '../../hooks/useCaseQueries';
import { useSnackbar } from '../../hooks/useSnackbar';

const NEW_CASE = 'new';

/** What the button adds: a post (on every post card), a whole story, or an evidence capture. */
export type CaseTarget = { postId: string } | { storyId: string } | { evidenceId: string };

/** The note's hint, naming what is added. */
function noteHint(target: CaseTarget): string {
  if ('storyId' in target) return 'Why this story matters to the case.';
  if ('evidenceId' in target) return 'Why this capture matters to the case.';
  return 'Why this post matters to the case.';
}

/**
 * "Add to case" on a post card, a story or a capture: choose a case the user can edit, or start one, and
 * write a note. As a button with its label, or (compact) an icon button for a card's foot.
 */
export function AddToCaseButton({ target, compact = true }: { target: CaseTarget; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {compact ? (
        <Tooltip title="Add to case">
          <IconButton size="small" aria-label="Add to case" onClick={() => setOpen(true)}>
            <CreateNewFolderOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : (
        <Button variant="outlined" startIcon={<CreateNewFolderOutlined />} onClick={() => setOpen(true)}>
          Add to case
        </Button>
      )}
      {open && <AddToCaseDialog target={target} onClose={() => setOpen(false)} />}
    </>
  );
}

function AddToCaseDialog({ target, onClose }: { target: CaseTarget; onClose: () => void }) {
  const titleId = useId();
  const cases = useCasesQuery(NO_CASE_FILTER);
  const editable = (cases.data ?? []).filter((c) => c.canEdit && c.status !== 'closed');
  const [choice, setChoice] = useState<string>('');
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const create = useCreateCase();
  const add = useAddCaseItem();
  const snackbar = useSnackbar();
  const chosen = choice || (editable[0] ? String(editable[0].id) : NEW_CASE);
  const busy = create.isPending || add.isPending;

  const submit = async () => {
    try {
      const caseId = chosen === NEW_CASE ? await create.mutateAsync({ name }) : Number(chosen);
      const item: CaseItemInput = { ...target, note };
      await add.mutateAsync({ caseId, item });
      const caseName = chosen === NEW_CASE ? name : editable.find((c) => c.id === caseId)?.name;
      snackbar.show({ text: `Added to the case “${caseName ?? ''}”.`, color: 'success' });
      onClose();
    } catch {
      // The form shows the reply's message on its field.
    }
  };
  const refError =
    fieldError(add.error, 'postId') ?? fieldError(add.error, 'storyId') ?? fieldError(add.error, 'evidenceId');
  const problem =
    refError ?? formError(add.error, ['postId', 'storyId', 'evidenceId', 'note']) ?? formError(create.error, ['name']);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Add to case</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id={`${titleId}-form`}
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <TextField
            select
            label="Case"
            value={chosen}
            onChange={(event) => setChoice(event.target.value)}
            disabled={cases.isPending}
            helperText={cases.isError ? 'Your cases could not be loaded; you can still start a new one.' : undefined}
          >
            {editable.map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {c.name}
              </MenuItem>
            ))}
            <MenuItem value={NEW_CASE}>New case…</MenuItem>
          </TextField>
          {chosen === NEW_CASE && (
            <TextField
              label="New case name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              required
              error={fieldError(create.error, 'name') !== undefined}
              helperText={fieldError(create.error, 'name')}
            />
          )}
          <TextField
            label="Note"
            value={note}
            onChange={(event) => setNote(event.target.value)}
            multiline
            minRows={2}
            error={fieldError(add.error, 'note') !== undefined}
            helperText={fieldError(add.error, 'note') ?? noteHint(target)}
          />
          {problem && <Alert severity="error">{problem}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" form={`${titleId}-form`} variant="contained" disabled={busy}>
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
}
