import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { breachQuery } from '../../lib/advancedQuery';

/** Searches the breach and paste data for an e-mail address or a domain. */
export function BreachSearchDialog({
  open,
  onClose,
  onSearch,
}: {
  open: boolean;
  onClose: () => void;
  onSearch: (query: string) => void;
}) {
  const titleId = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const submit = () => {
    const checked = breachQuery(value);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setValue('');
    setError(undefined);
    onSearch(checked.query);
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Data breach search</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Find an e-mail address or a whole domain in leaked databases, pastes and stolen-credential logs.
        </DialogContentText>
        <TextField
          label="E-mail or domain"
          placeholder="name@example.com or example.com"
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(undefined);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') submit();
          }}
          error={Boolean(error)}
          helperText={error ?? ' '}
          fullWidth
          autoFocus
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit}>
          Search breaches
        </Button>
      </DialogActions>
    </Dialog>
  );
}
