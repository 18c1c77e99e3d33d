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
