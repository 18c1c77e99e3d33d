import { useQuery } from '@tanstack/react-query';
import { reverseGeocode } from '../api/geocode';
import { geocodeKeys } from '../api/keys';
import { areaCentre } from '../lib/wkt';

/** The place that names a drawn area (its box's centre); idle for no area. */
export function useDrawnAreaName(wkt: string) {
  const centre = wkt ? areaCentre(wkt) : null;
  // Rounded to about 100 m: the same area drawn again asks again only when it moved.
  const lat = centre ? Math.round(centre.lat * 1000) / 1000 : 0;
  const lon = centre ? Math.round(centre.lon * 1000) / 1000 : 0;
  return useQuery({
    queryKey: geocodeKeys.reverse(lat, lon),
    queryFn: ({ signal }) => reverseGeocode({ lat, lon }, signal),
    enabled: centre !== null,
    staleTime: Infinity,
    retry: false,
  });
}
