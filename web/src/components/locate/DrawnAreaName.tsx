import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../api/transport';
import { useDrawnAreaName } from '../../hooks/useGeocodeQueries';
import { drawnAreaLabel, REVERSE_GEOCODE_FAILED } from '../../lib/drawnArea';
import { areaCentre } from '../../lib/wkt';

/**
 * Under the place field, what a drawn area is around: the place that names the centre of its box
 * (the town it is most inside, else its country), said while it is asked, and the failure.
 */
export function DrawnAreaName({ wkt }: { wkt: string }) {
  const name = useDrawnAreaName(wkt);
  if (!wkt || !areaCentre(wkt)) return null;
  let text: string;
  if (name.isPending) text = 'Naming the drawn area…';
  else if (name.isError)
    text =
      name.error instanceof ApiError && name.error.status === 404
        ? 'The drawn area is far from any named place.'
        : REVERSE_GEOCODE_FAILED;
  else text = drawnAreaLabel(name.data.address);
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'text.secondary' }} aria-live="polite">
      <PlaceOutlined fontSize="small" aria-hidden />
      <Typography variant="caption">{text}</Typography>
    </Stack>
  );
}
