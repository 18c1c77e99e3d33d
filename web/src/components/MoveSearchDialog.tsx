import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import type { MonitorSearchSummary } from '../api/monitor';
import { useSearchActions } from '../hooks/useMonitorActions';
import { useGroupsMiniQuery } from '../hooks/useMonitorQueries';
import { selectableGroups } from '../lib/searchForm';

/** Moves a search to another group the user can edit; read-only groups are not offered. */
export function MoveSearchDialog({ search, onClose }: { search: MonitorSearchSummary; onClose: () => void }) {
  const titleId = useId();
  const groups = useGroupsMiniQuery();
  const actions = useSearchActions();
  const [groupId, setGroupId] = useState<number | ''>('');
  const options = selectableGroups(groups.data ?? []).filter((g) => g.id !== search.groupId);
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id={titleId}>Move “{search.value}”</DialogTitle>
      <DialogContent>
        <TextField
          select
          fullWidth
          margin="dense"
          label="Group"
          value={groupId}
          onChange={(event) => setGroupId(Number(event.target.value))}
          helperText={options.length === 0 ? 'There is no other group you can edit.' : ' '}
        >
          {options.map((g) => (
            <MenuItem key={g.id} value={g.id}>
              {g.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={groupId === ''}
          onClick={() => {
            if (groupId === '') return;
            void actions.move([search], groupId).then((moved) => moved && onClose());
          }}
        >
          Move
        </Button>
      </DialogActions>
    </Dialog>
  );
}
