import L from 'leaflet';
import type { LatLon, PlaceFeature } from '../api/configurations';

/** The server's bounds on a proximity radius, in meters. */
export const MIN_RADIUS_METERS = 10;
export const MAX_RADIUS_METERS = 500_000;

/** A distance as people read it: "250 m", "1.5 km", "120 km". */
export function formatDistance(meters: number): string {
  if (meters < 1000) return `${Math.round(meters)} m`;
  const km = meters / 1000;
  return `${km < 10 ? Number(km.toFixed(1)) : Math.round(km)} km`;
}

/** The middle of a place's bounds, where the server measures proximity from. */
export function boundsCenter(feature: PlaceFeature): LatLon | undefined {
  const bounds = L.geoJSON(feature as unknown as GeoJSON.Feature).getBounds();
  if (!bounds.isValid()) return undefined;
  const { lat, lng } = bounds.getCenter();
  return { lat, lon: lng };
}

/**
 * The radius the server gives a place with no radius chosen: the circle about the middle of its
 * bounds that holds them, within the allowed range.
 */
export function defaultRadiusMeters(feature: PlaceFeature): number | undefined {
  const bounds = L.geoJSON(feature as unknown as GeoJSON.Feature).getBounds();
  if (!bounds.isValid()) return undefined;
  const center = bounds.getCenter();
  const farthest = Math.max(
    ...[bounds.getNorthEast(), bounds.getNorthWest(), bounds.getSouthEast(), bounds.getSouthWest()].map((corner) =>
      center.distanceTo(corner),
    ),
  );
  return Math.min(Math.max(Math.round(farthest), MIN_RADIUS_METERS), MAX_RADIUS_METERS);
}

/** Kilometres as typed into a field, as whole meters; undefined when empty or not a number. */
export function metersOfKm(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return undefined;
  const km = Number(trimmed);
  return Number.isFinite(km) ? Math.round(km * 1000) : undefined;
}
