import LanguageOutlined from '@mui/icons-material/LanguageOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { evidenceBundleUrl, isCapturing } from '../../api/evidence';
import { fieldError, formError } from '../../api/fieldError';
import { useAddCaseItem } from '../../hooks/useCaseQueries';
import { useCaptureEvidence, useEvidenceQuery } from '../../hooks/useEvidenceQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { AddToCaseButton } from '../cases/AddToCaseButton';
import { LoadError } from '../LoadError';
import { EvidenceRecord } from './EvidenceDialog';
import { urlProblem } from '../../lib/captureUrl';

/** The case the capture can go into: the case page's own. */
export interface CaptureCase {
  id: number;
  name: string;
}

/**
 * "Capture a web page": a button that opens the dialog. On a case page (intoCase) the capture can
 * go straight into that case; elsewhere, once captured, "Add to case" offers any case.
 */
export function CaptureUrlButton({ intoCase }: { intoCase?: CaptureCase }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<LanguageOutlined />}
        onClick={() => setOpen(true)}
        sx={{ whiteSpace: 'nowrap' }}
      >
        Capture a web page
      </Button>
      {open && <CaptureUrlDialog intoCase={intoCase} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * A pasted address captured as evidence: the page is fetched through the outbound guard into a
 * WARC (with a screenshot and PDF when the server has Chromium), hashed and timestamped. The
 * dialog shows the capture's progress as the live channel reports it, then the record.
 */
export function CaptureUrlDialog({ intoCase, onClose }: { intoCase?: CaptureCase; onClose: () => void }) {
  const titleId = useId();
  const [url, setUrl] = useState('');
  const [checked, setChecked] = useState(false);
  const [addToCase, setAddToCase] = useState(intoCase !== undefined);
  const [note, setNote] = useState('');
  const [id, setId] = useState<string | null>(null);
  const capture = useCaptureEvidence();
  const add = useAddCaseItem();
  const snackbar = useSnackbar();
  const problem = checked ? urlProblem(url) : undefined;
  const urlError = problem ?? fieldError(capture.error, 'url');

  const submit = async () => {
    setChecked(true);
    if (urlProblem(url) !== undefined) return;
    let captured: string;
    try {
      captured = await capture.mutateAsync({ url: url.trim() });
    } catch {
      return; // The form shows the reply's message.
    }
    setId(captured);
    if (intoCase && addToCase) {
      try {
        await add.mutateAsync({ caseId: intoCase.id, item: { evidenceId: captured, note } });
        snackbar.show({ text: `The capture was added to the case “${intoCase.name}”.`, color: 'success' });
      } catch {
        // The record view says the capture is kept but not in the case.
      }
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Capture a web page</DialogTitle>
      {id === null ? (
        <>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>
              The server fetches the page and keeps it as a WARC file, with a screenshot and PDF when it has Chromium.
              Every file is hashed, and the hashes are timestamped by the server’s timestamp authorities when it has
              any, so that you can show later what was online and that nobody changed it since.
            </DialogContentText>
            <Stack
              component="form"
              id={`${titleId}-form`}
              noValidate
              spacing={2}
              onSubmit={(event) => {
                event.preventDefault();
                void submit();
              }}
            >
              <TextField
                label="Address"
                value={url}
                onChange={(event) => {
                  setUrl(event.target.value);
                  if (capture.isError) capture.reset();
                }}
                placeholder="https://example.com/article"
                required
                autoFocus
                inputMode="url"
                error={urlError !== undefined}
                helperText={urlError ?? 'The whole address, starting with http:// or https://.'}
              />
              {intoCase && (
                <>
                  <FormControlLabel
                    control={<Checkbox checked={addToCase} onChange={(event) => setAddToCase(event.target.checked)} />}
                    label={`Add the capture to the case “${intoCase.name}”`}
                  />
                  {addToCase && (
                    <TextField
                      label="Note"
                      value={note}
                      onChange={(event) => setNote(event.target.value)}
                      multiline
                      minRows={2}
                      helperText="Why this page matters to the case."
                    />
                  )}
                </>
              )}
              {formError(capture.error, ['url']) && <Alert severity="error">{formError(capture.error, ['url'])}</Alert>}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" form={`${titleId}-form`} variant="contained" loading={capture.isPending}>
              Capture
            </Button>
          </DialogActions>
        </>
      ) : (
        <CapturedPage
          id={id}
          url={url.trim()}
          addError={add.error ? (fieldError(add.error, 'evidenceId') ?? add.error.message) : undefined}
          offerCase={intoCase === undefined}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

/** The capture once asked for: its progress, then its record, bundle and (off a case) "Add to case". */
function CapturedPage({
  id,
  url,
  addError,
  offerCase,
  onClose,
}: {
  id: string;
  url: string;
  addError: string | undefined;
  offerCase: boolean;
  onClose: () => void;
}) {
  const query = useEvidenceQuery(id);
  const evidence = query.data;
  const finished = evidence !== undefined && !isCapturing(evidence);
  return (
    <>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
          Record {id} of {url}
        </Typography>
        {addError && (
          <Alert severity="error" sx={{ mb: 1 }}>
            The capture is kept but was not added to the case: {addError}
          </Alert>
        )}
        {query.isError && <LoadError onRetry={() => void query.refetch()}>The capture could not be loaded.</LoadError>}
        {evidence && <EvidenceRecord evidence={evidence} />}
        {!evidence && !query.isError && <LinearProgress aria-label="Loading the capture" />}
      </DialogContent>
      <DialogActions>
        {offerCase && <AddToCaseButton target={{ evidenceId: id }} compact={false} />}
        {finished && evidence.state !== 'deleted' && (
          <Button href={evidenceBundleUrl(id)} download>
            Download bundle
          </Button>
        )}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </>
  );
}
