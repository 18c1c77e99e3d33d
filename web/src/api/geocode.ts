// Geocoding (search-side.md section 7): address suggestions and looked-up places.
import { request } from './transport';

export interface GeocodeSuggestion {
  /** "City, Region, Country"; looking it up finds this place again. */
  address: string;
  name: string;
  region?: string;
  country?: string;
  kind: string;
}

export interface GeocodeResult {
  address: string;
  name: string;
  /** The place's outline or box as WKT. */
  bounds: string;
  point: { lat: number; lon: number };
  is_address_in_us_territory: boolean;
}

export async function geocodeAutocomplete(address: string, signal?: AbortSignal): Promise<GeocodeSuggestion[]> {
  const query = new URLSearchParams({ address }).toString();
  return (await request<GeocodeSuggestion[]>('GET', `/api/v1/geocode/autocomplete?${query}`, { signal })).data;
}

export async function geocodeAddress(address: string, signal?: AbortSignal): Promise<GeocodeResult> {
  const query = new URLSearchParams({ address }).toString();
  return (await request<GeocodeResult>('GET', `/api/v1/geocode/address?${query}`, { signal })).data;
}

/** The place that names a point (GET /api/v1/geocode/reverse): the town it is most inside, else its country. */
export interface ReverseGeocodeResult {
  /** "City, Region, Country" or "Country". */
  address: string;
  name: string;
  country_code?: string;
  kind: 'city' | 'region' | 'country' | 'place';
  point: { lat: number; lon: number };
  /** From the point asked to the place's point. */
  distance_km: number;
  is_address_in_us_territory: boolean;
}

export async function reverseGeocode(
  point: { lat: number; lon: number },
  signal?: AbortSignal,
): Promise<ReverseGeocodeResult> {
  const query = new URLSearchParams({ lat: String(point.lat), lon: String(point.lon) }).toString();
  return (await request<ReverseGeocodeResult>('GET', `/api/v1/geocode/reverse?${query}`, { signal })).data;
}
