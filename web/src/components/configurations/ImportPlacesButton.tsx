import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState } from 'react';
import { useImportConfigurations } from '../../hooks/useConfigurationQueries';
import { readText } from '../../lib/fileText';

/**
 * Imports many places from a CSV file (name and address on each line, a header row optional),
 * then shows what became of each line.
 */
export function ImportPlacesButton() {
  const input = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [readFailure, setReadFailure] = useState<string>();
  const importPlaces = useImportConfigurations();

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setOpen(true);
    setReadFailure(undefined);
    try {
      importPlaces.mutate(await readText(file));
    } catch (error) {
      setReadFailure(error instanceof Error ? error.message : 'The file could not be read.');
    }
  };
  const report = importPlaces.data;

  return (
    <>
      <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => input.current?.click()}>
        Import CSV
      </Button>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        aria-label="CSV file of places"
        onChange={(event) => {
          void choose(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} fullWidth maxWidth="md">
        <DialogTitle id={titleId}>Import places</DialogTitle>
        <DialogContent>
          {importPlaces.isPending && (
            <>
              <Typography sx={{ mb: 1 }}>Finding each address… large files take a while.</Typography>
              <LinearProgress aria-label="Importing places" />
            </>
          )}
          {(readFailure ?? importPlaces.error?.message) && (
            <Alert severity="error">{readFailure ?? importPlaces.error?.message}</Alert>
          )}
          {report && !importPlaces.isPending && (
            <>
              <Alert severity={report.failed === 0 ? 'success' : 'warning'} sx={{ mb: 2 }}>
                {report.created} {report.created === 1 ? 'place was' : 'places were'} added
                {report.failed > 0 && `; ${report.failed} ${report.failed === 1 ? 'line was' : 'lines were'} not`}.
              </Alert>
              <Table size="small" aria-label="Import report">
                <TableHead>
                  <TableRow>
                    <TableCell>Line</TableCell>
                    <TableCell>Name</TableCell>
                    <TableCell>Address</TableCell>
                    <TableCell>Result</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.places.map((p) => (
                    <TableRow key={p.line}>
                      <TableCell>{p.line}</TableCell>
                      <TableCell>{p.name}</TableCell>
                      <TableCell>{p.address}</TableCell>
                      <TableCell sx={{ color: p.created ? 'success.main' : 'error.main' }}>
                        {p.created ? 'Added' : p.message}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </>
          )}
          {!report && !importPlaces.isPending && !importPlaces.isError && !readFailure && (
            <Typography color="text.secondary">
              Each line of the file is a place: a name and an address, in that order. With a header row the columns may
              come in any order and hold coordinates and a radius instead: name, address or lat and lon, and radius in
              meters.
            </Typography>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant="contained" onClick={() => setOpen(false)} disabled={importPlaces.isPending}>
            Close
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
