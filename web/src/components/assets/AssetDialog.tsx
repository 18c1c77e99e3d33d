import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { ASSET_TYPES, type Asset, type AssetType, MAX_ASSET_VALUE_LENGTH } from '../../api/assets';
import { fieldError } from '../../api/fieldError';
import { useSaveAsset } from '../../hooks/useAssetQueries';
import { useLimitDialog } from '../../hooks/useFailureReport';
import { useSnackbar } from '../../hooks/useSnackbar';
import { assetLimitOf } from '../../lib/assetLimit';
import { ASSET_TYPE_TEXT } from '../../lib/assetTypes';

/**
 * Adds an asset, or changes `editing`: a type and a value. The server checks the value against
 * its type with the spec's messages, shown under the field; past the organization's asset limit
 * the Asset Limit dialog opens.
 */
export function AssetDialog({ open, editing, onClose }: { open: boolean; editing: Asset | null; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{editing ? 'Edit asset' : 'New asset'}</DialogTitle>
      {/* Mounted per opening, so each starts from the asset's saved values. */}
      {open && <AssetForm editing={editing} onClose={onClose} />}
    </Dialog>
  );
}

function AssetForm({ editing, onClose }: { editing: Asset | null; onClose: () => void }) {
  const [type, setType] = useState<AssetType>(editing?.type ?? 'domain');
  const [value, setValue] = useState(editing?.value ?? '');
  const [valueMissing, setValueMissing] = useState(false);
  const save = useSaveAsset();
  const showLimit = useLimitDialog();
  const snackbar = useSnackbar();

  const submit = () => {
    if (value.trim() === '') {
      setValueMissing(true);
      return;
    }
    save.mutate(
      { id: editing?.id, body: { type, value: value.trim() } },
      {
        onSuccess: (saved) => {
          snackbar.show({ color: 'success', text: editing ? `“${saved.value}” saved` : `“${saved.value}” added` });
          onClose();
        },
        onError: (error) => {
          const reached = assetLimitOf(error);
          if (reached) showLimit(reached);
        },
      },
    );
  };

  const typeError = fieldError(save.error, 'type');
  const valueError = valueMissing ? 'Value is required' : fieldError(save.error, 'value');
  const otherError =
    save.isError && !typeError && !fieldError(save.error, 'value') && !assetLimitOf(save.error)
      ? save.error.message
      : undefined;
  const text = ASSET_TYPE_TEXT[type];

  return (
    <>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <TextField
            select
            label="Type"
            value={type}
            onChange={(event) => {
              setType(event.target.value as AssetType);
              save.reset();
            }}
            error={Boolean(typeError)}
            helperText={typeError}
          >
            {ASSET_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {ASSET_TYPE_TEXT[t].label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Value"
            value={value}
            placeholder={text.placeholder}
            onChange={(event) => {
              setValue(event.target.value);
              setValueMissing(false);
              save.reset();
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') submit();
            }}
            error={Boolean(valueError)}
            helperText={valueError ?? text.hint}
            slotProps={{ htmlInput: { maxLength: MAX_ASSET_VALUE_LENGTH } }}
            autoFocus
            required
          />
          {otherError && <Alert severity="error">{otherError}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={save.isPending}
          startIcon={save.isPending ? <CircularProgress size={16} color="inherit" aria-label="Saving" /> : undefined}
        >
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogActions>
    </>
  );
}
