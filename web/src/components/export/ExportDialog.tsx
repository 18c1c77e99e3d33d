import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { ExportFormat, ExportSelection } from '../../api/exports';
import { useRequestExport } from '../../hooks/useExportQueries';
import { useExportToasts } from '../../hooks/useExportToasts';
import { useProfile } from '../../hooks/useProfileQuery';
import { columnsFor, emailError } from '../../lib/exportColumns';
import { formatCount } from '../../lib/countFormat';

/**
 * Export dialog: the columns, the format and an optional address to mail the link to. The file
 * is written in the background; the toasts say when it is ready.
 */
export function ExportDialog({
  open,
  onClose,
  selection,
  what,
  count,
}: {
  open: boolean;
  onClose: () => void;
  selection: ExportSelection;
  /** What is exported, in words: "the 12 chosen matches". */
  what: string;
  /** How many posts, when known. */
  count?: number;
}) {
  const columns = columnsFor(selection.source);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(columns.filter((c) => c.preset).map((c) => c.id)));
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  // A server without SMTP refuses an address: the dialog does not offer one.
  const mail = useProfile().emailDelivery;
  const exporting = useRequestExport();
  const toasts = useExportToasts();
  const invalidEmail = touched ? emailError(email) : null;

  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const submit = () => {
    setTouched(true);
    if (emailError(email) || chosen.size === 0) return;
    exporting.mutate(
      {
        selection,
        // In the dialog's order, which is the file's.
        options: { columns: columns.filter((c) => chosen.has(c.id)).map((c) => c.id), format, email },
      },
      {
        onSuccess: (created) => {
          toasts.started(created.id);
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="export-title">
      <DialogTitle id="export-title">Export posts</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5}>
          <Typography>
            Exports {what}
            {count !== undefined && ` (${formatCount(count)} ${count === 1 ? 'post' : 'posts'})`}. Up to 50,000 posts a
            day; the file is kept for 30 days.
          </Typography>
          <FormControl component="fieldset">
            <FormLabel component="legend">Columns</FormLabel>
            <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              {columns.map((c) => (
                <FormControlLabel
                  key={c.id}
                  control={<Checkbox checked={chosen.has(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} />}
                  label={c.label}
                />
              ))}
            </FormGroup>
            {chosen.size === 0 && (
              <Typography color="error" variant="body2">
                Choose at least one column.
              </Typography>
            )}
          </FormControl>
          <FormControl>
            <FormLabel id="export-format">Format</FormLabel>
            <RadioGroup
              row
              aria-labelledby="export-format"
              value={format}
              onChange={(e) => setFormat(e.target.value as ExportFormat)}
            >
              <FormControlLabel value="csv" control={<Radio />} label="CSV (spreadsheets)" />
              <FormControlLabel value="json" control={<Radio />} label="JSON" />
            </RadioGroup>
          </FormControl>
          {mail ? (
            <TextField
              label="E-mail the link to (optional)"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              onBlur={() => setTouched(true)}
              error={invalidEmail !== null}
              helperText={
                invalidEmail ??
                'Your own address or a member of your organization. The link also appears here when the file is ready.'
              }
            />
          ) : (
            <Typography variant="body2" color="text.secondary">
              The link appears here when the file is ready. E-mail delivery is not configured on this server, so it
              cannot be mailed; the operator turns it on with --smtp-url.
            </Typography>
          )}
          {exporting.error && <Alert severity="error">{exporting.error.message}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={exporting.isPending || chosen.size === 0}
          startIcon={exporting.isPending ? <CircularProgress size={16} aria-label="Requesting the export" /> : null}
        >
          Export
        </Button>
      </DialogActions>
    </Dialog>
  );
}
