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
import type { LatLon, LocationConfigurationDetail } from '../../api/configurations';
import { fieldError } from '../../api/fieldError';
import { usePlaceQuery, useSaveConfiguration } from '../../hooks/useConfigurationQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { assetLimitOf } from '../../lib/assetLimit';
import { useLimitDialog } from '../../hooks/useFailureReport';
import { boundsCenter, defaultRadiusMeters, formatDistance, metersOfKm } from '../../lib/distance';
import { LocationField } from '../searchBuilder/LocationField';
import { PlaceMap } from './PlaceMap';

/**
 * Creates a location configuration, or changes `editing`: a name, an address chosen with
 * suggestions whose outline is drawn as soon as the address names a place, and a proximity
 * radius (empty: the default, the circle that holds the outline). The server geocodes the
 * address again on save and stores that outline.
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
  const showLimit = useLimitDialog();
  const [radiusKm, setRadiusKm] = useState(
    editing && !editing.radius_is_default ? String(editing.radius_meters / 1000) : '',
  );
  // A place given as coordinates keeps them while its address text is left as it was.
  const point = editing?.point && address === editing.address ? editing.point : null;
  const place = usePlaceQuery(point ? '' : placed);
  const save = useSaveConfiguration();
  const snackbar = useSnackbar();

  const submit = () => {
    if (name.trim() === '') {
      setNameMissing(true);
      return;
    }
    save.mutate(
      {
        id: editing?.id,
        body: { name: name.trim(), address: address.trim(), radius_meters: metersOfKm(radiusKm), ...point },
      },
      {
        onSuccess: (saved) => {
          snackbar.show({ color: 'success', text: editing ? `“${saved.name}” saved` : `“${saved.name}” added` });
          onClose();
        },
        onError: (error) => {
          const reached = assetLimitOf(error);
          if (reached) showLimit(reached);
        },
      },
    );
  };

  const nameError = nameMissing ? 'Give the place a name.' : fieldError(save.error, 'name');
  const addressError = fieldError(save.error, 'address') ?? lookupFailure;
  const radiusTyped = radiusKm.trim() !== '';
  const radiusError =
    radiusTyped && metersOfKm(radiusKm) === undefined
      ? 'Type the radius in kilometres, such as 2.5.'
      : fieldError(save.error, 'radius_meters');
  const otherError =
    save.isError &&
    !nameError &&
    !fieldError(save.error, 'address') &&
    !fieldError(save.error, 'radius_meters') &&
    !assetLimitOf(save.error)
      ? save.error.message
      : undefined;
  const feature = point ? editing?.address_bounds : place.data;
  const fallback = point ? 1000 : feature ? defaultRadiusMeters(feature) : undefined;
  const radiusMeters = metersOfKm(radiusKm) ?? fallback;
  const center = point ?? (editing && address === editing.address ? editing.center : undefined);

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
          <TextField
            label="Proximity radius (km)"
            value={radiusKm}
            onChange={(event) => setRadiusKm(event.target.value)}
            error={Boolean(radiusError)}
            helperText={
              radiusError ??
              (fallback === undefined
                ? 'Leave empty to cover the whole place. Alerts watch posts within this distance of its centre.'
                : `Leave empty for ${formatDistance(fallback)}, which covers the whole place. Alerts watch posts within this distance of its centre.`)
            }
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
          {point && feature ? (
            <PlaceMap
              feature={feature}
              label={`Radius about ${address}`}
              radius={radiusMeters === undefined ? undefined : { center: point, meters: radiusMeters }}
            />
          ) : (
            <PlacePreview
              address={placed}
              place={place}
              radius={radiusMeters === undefined ? undefined : { center, meters: radiusMeters }}
            />
          )}
          {otherError && <Alert severity="error">{otherError}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={save.isPending || address.trim() === ''}
          startIcon={save.isPending ? <CircularProgress size={16} color="inherit" aria-label="Saving" /> : undefined}
        >
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogActions>
    </>
  );
}

function PlacePreview({
  address,
  place,
  radius,
}: {
  address: string;
  place: ReturnType<typeof usePlaceQuery>;
  /** The radius to draw; without a center, about the middle of the place's bounds. */
  radius?: { center?: LatLon; meters: number };
}) {
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
  const center = radius?.center ?? boundsCenter(place.data);
  return (
    <PlaceMap
      feature={place.data}
      label={`Bounds of ${address}`}
      radius={radius && center ? { center, meters: radius.meters } : undefined}
    />
  );
}
