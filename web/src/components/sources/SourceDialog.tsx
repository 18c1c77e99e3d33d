import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import type { Source, SourceInput, SourcePreview } from '../../api/sources';
import { ApiError } from '../../api/transport';
import { useLimitDialog } from '../../hooks/useFailureReport';
import { useSaveSource, useTestSource } from '../../hooks/useSourceQueries';
import { assetLimitOf } from '../../lib/assetLimit';
import { configOf, fieldValues, typeFields, typeLabel } from './sourceFormat';
import { SourcePreviewList } from './SourcePreviewList';

interface Props {
  open: boolean;
  /** The source to edit; a new one when absent. */
  source?: Source;
  types: string[];
  onClose: () => void;
  onSaved: (source: Source) => void;
}

/** Adds or edits a source: its type, name and settings, a test fetch's preview, and Save. */
export function SourceDialog({ open, source, types, onClose, onSaved }: Props) {
  const [type, setType] = useState(source?.type ?? 'rss');
  const [name, setName] = useState(source?.name ?? '');
  const [values, setValues] = useState<Record<string, string>>(() =>
    fieldValues(source?.type ?? 'rss', source?.config ?? {}),
  );
  const [json, setJson] = useState(() => JSON.stringify(source?.config ?? {}, null, 2));
  const [enabled, setEnabled] = useState(source?.enabled ?? true);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState('');
  const [preview, setPreview] = useState<SourcePreview | null>(null);
  const save = useSaveSource();
  const showLimit = useLimitDialog();
  const test = useTestSource();
  const fields = typeFields[type];

  const input = (): SourceInput | null => {
    let config: Record<string, unknown>;
    if (fields) {
      config = configOf(type, values, source?.type === type ? source.config : {});
    } else {
      try {
        config = JSON.parse(json || '{}') as Record<string, unknown>;
      } catch {
        setErrors({ config: ['The settings are not valid JSON.'] });
        return null;
      }
    }
    return { type, name, config, enabled };
  };

  const report = (error: unknown) => {
    const limit = assetLimitOf(error);
    if (limit) {
      // The tenant's cap on sources: the one limit dialog, as for any asset.
      showLimit(limit);
    } else if (error instanceof ApiError && error.body?.errors) {
      setErrors(error.body.errors);
      setFailure(error.body.errors.config?.[0] ?? error.body.errors.type?.[0] ?? '');
    } else {
      setFailure(error instanceof Error ? error.message : 'The request failed.');
    }
  };

  const runTest = () => {
    const body = input();
    if (!body) return;
    setErrors({});
    setFailure('');
    setPreview(null);
    test.mutate({ id: source?.id, input: body }, { onSuccess: (result) => setPreview(result), onError: report });
  };

  const submit = () => {
    const body = input();
    if (!body) return;
    setErrors({});
    setFailure('');
    save.mutate({ id: source?.id, input: body }, { onSuccess: onSaved, onError: report });
  };

  const fieldError = (key: string) => errors[`config.${key}`]?.[0];

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="source-dialog-title">
      <DialogTitle id="source-dialog-title">{source ? `Edit ${source.name}` : 'Add source'}</DialogTitle>
      <DialogContent>
        <Stack
          spacing={2}
          component="form"
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <TextField
            select
            label="Type"
            value={type}
            onChange={(event) => {
              setType(event.target.value);
              setPreview(null);
            }}
            error={Boolean(errors.type)}
            helperText={errors.type?.[0]}
            disabled={Boolean(source)}
          >
            {types.map((t) => (
              <MenuItem key={t} value={t}>
                {typeLabel(t)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Name"
            value={name}
            required
            onChange={(event) => setName(event.target.value)}
            error={Boolean(errors.name)}
            helperText={errors.name?.[0] ?? 'How the source is listed, for example “Harbour Gazette”.'}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          {fields ? (
            fields.map((field) => (
              <TextField
                key={field.key}
                label={field.label}
                required={field.required}
                type={field.kind === 'password' ? 'password' : 'text'}
                select={field.kind === 'select'}
                value={values[field.key] ?? ''}
                onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
                error={Boolean(fieldError(field.key))}
                helperText={fieldError(field.key) ?? field.helper}
                autoComplete="off"
              >
                {field.kind === 'select'
                  ? ['', ...(field.options ?? [])].map((option) => (
                      <MenuItem key={option} value={option}>
                        {option || 'Default'}
                      </MenuItem>
                    ))
                  : undefined}
              </TextField>
            ))
          ) : (
            <TextField
              label="Settings (JSON)"
              multiline
              minRows={4}
              value={json}
              onChange={(event) => setJson(event.target.value)}
              error={Boolean(errors.config)}
              helperText={errors.config?.[0] ?? 'This type’s settings, as docs/connectors.md describes them.'}
              slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
            />
          )}
          <FormControlLabel
            control={<Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />}
            label="Enabled: fetch now and then on its interval"
          />
          {failure && !preview && <Alert severity="error">{failure}</Alert>}
          {test.isPending && <Alert severity="info">Fetching once…</Alert>}
          {preview && <SourcePreviewList preview={preview} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button onClick={runTest} disabled={test.isPending}>
          Test
        </Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
