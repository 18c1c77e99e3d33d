import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { LocationConfigurationDetail } from '../../api/configurations';
import { ApiError } from '../../api/transport';
import { usePlaceQuery, useSaveConfiguration } from '../../hooks/useConfigurationQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { type AssetLimit, assetLimitOf } from '../../lib/assetLimit';
import { AssetLimitDialog } from '../AssetLimitDialog';
import { LocationField } from '../searchBuilder/LocationField';
import { PlaceMap } from './PlaceMap';

/** The server's message for a field of a 422 reply, if it sent one. */
function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.body?.errors?.[field]?.[0] : undefined;
}

/**
 * Creates a location configuration, or changes `editing`: a name and an address chosen with
 * suggestions, whose outline is drawn as soon as the address names a place. The server geocodes
 * the address again on save and stores that outline.
 */
export function ConfigurationDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: LocationConfigurationDetail | null;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{editing ? `Edit “${editing.name}”` : 'New location configuration'}</DialogTitle>
      {/* Mounted per opening, so each starts from the configuration's saved values. */}
      {open && <ConfigurationForm editing={editing} onClose={onClose} />}
    </Dialog>
  );
}

function ConfigurationForm({ editing, onClose }: { editing: LocationConfigurationDetail | null; onClose: () => void }) {
  const [name, setName] = useState(editing?.name ?? '');
  const [address, setAddress] = useState(editing?.address ?? '');
  // The address whose outline is shown: set once the field resolves a place, not at each key.
  const [placed, setPlaced] = useState(editing?.address ?? '');
  const [lookupFailure, setLookupFailure] = useState<string>();
  const [nameMissing, setNameMissing] = useState(false);
  const [limit, setLimit] = useState<AssetLimit | null>(null);
  const place = usePlaceQuery(placed);
  const save = useSaveConfiguration();
  const snackbar = useSnackbar();

  const submit = () => {
    if (name.trim() === '') {
      setNameMissing(true);
      return;
    }
    save.mutate(
      { id: editing?.id, body: { name: name.trim(), address: address.trim() } },
      {
        onSuccess: (saved) => {
          snackbar.show({ color: 'success', text: editing ? `“${saved.name}” saved` : `“${saved.name}” added` });
          onClose();
        },
        onError: (error) => setLimit(assetLimitOf(error)),
      },
    );
  };

  const nameError = nameMissing ? 'Give the place a name.' : fieldError(save.error, 'name');
  const addressError = fieldError(save.error, 'address') ?? lookupFailure;
  const otherError =
    save.isError && !nameError && !fieldError(save.error, 'address') && !assetLimitOf(save.error)
      ? save.error.message
      : undefined;

  return (
    <>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <TextField
            label="Name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setNameMissing(false);
            }}
            error={Boolean(nameError)}
            helperText={nameError ?? 'How alerts and pickers will call this place, such as “Head office”.'}
            slotProps={{ htmlInput: { maxLength: 255 } }}
            autoFocus
            required
          />
          <LocationField
            label="Address"
            placeholder="A street address, city, region or country"
            value={address}
            onChange={setAddress}
            onResolved={(result, failure) => {
              setLookupFailure(result === null && failure ? failure : undefined);
              setPlaced(result ? result.address : '');
            }}
            error={addressError}
          />
          <PlacePreview address={placed} place={place} />
          {otherError && <Alert severity="error">{otherError}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={save.isPending || address.trim() === ''}
          startIcon={save.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogActions>
      <AssetLimitDialog limit={limit} onClose={() => setLimit(null)} />
    </>
  );
}

function PlacePreview({ address, place }: { address: string; place: ReturnType<typeof usePlaceQuery> }) {
  if (address === '') {
    return (
      <Box sx={{ p: 2, borderRadius: 1, border: 1, borderColor: 'divider', borderStyle: 'dashed' }}>
        <Typography variant="body2" color="text.secondary">
          Choose an address and its bounds are drawn here before you save.
        </Typography>
      </Box>
    );
  }
  if (place.isPending) return <Box role="status" aria-label="Finding the place" sx={{ height: 220 }} />;
  if (place.isError) return <Alert severity="warning">{place.error.message}</Alert>;
  return <PlaceMap feature={place.data} label={`Bounds of ${address}`} />;
}
