// Location configurations (monitor-area.md section 9): the places proximity alerts watch.
import { request } from './transport';

/** A location configuration as the notification panels list it. */
export interface LocationConfiguration {
  id: number;
  fpid: string;
  name: string;
  address: string;
}

/** All the organization's location configurations (one page of 1000, as the pickers use). */
export async function fetchLocationConfigurations(signal?: AbortSignal): Promise<LocationConfiguration[]> {
  return (
    await request<LocationConfiguration[]>('GET', '/api/v1/configurations-manager/configurations?limit=1000', {
      signal,
    })
  ).data;
}

const CONFIGURATIONS = '/api/v1/configurations-manager';

/** A place's outline as the server stores it: a GeoJSON Feature. */
export interface PlaceFeature {
  type: 'Feature';
  geometry: { type: string; coordinates: unknown };
  properties?: Record<string, unknown>;
}

export interface LatLon {
  lat: number;
  lon: number;
}

/** A location configuration with its bounds, owner and whether the caller may change it. */
export interface LocationConfigurationDetail extends LocationConfiguration {
  address_bounds: PlaceFeature | null;
  /** Where proximity is measured from: the point, or the middle of the bounds. */
  center: LatLon;
  /** Set when the place was given as coordinates rather than an address. */
  point: LatLon | null;
  /** The proximity radius; `radius_is_default` while it follows the bounds (1 km for a point). */
  radius_meters: number;
  radius_is_default: boolean;
  owner: { id: number; email: string; username: string };
  canEdit: boolean;
  /** Unix seconds. */
  created_at: number;
  updated_at: number;
}

export interface LocationConfigurationPage {
  items: LocationConfigurationDetail[];
  /** From 0. */
  page: number;
  lastPage: number;
  total: number;
}

/** The spec's page size for the configurations manager. */
export const CONFIGURATIONS_PER_PAGE = 10;

export async function fetchLocationConfigurationPage(
  page: number,
  q: string,
  signal?: AbortSignal,
): Promise<LocationConfigurationPage> {
  const params = new URLSearchParams({ page: String(page), limit: String(CONFIGURATIONS_PER_PAGE) });
  if (q !== '') params.set('q', q);
  const reply = await request<LocationConfigurationDetail[]>('GET', `${CONFIGURATIONS}/configurations?${params}`, {
    signal,
  });
  const meta = reply.meta as { current_page: number; last_page: number; total: number };
  return { items: reply.data, page: meta.current_page, lastPage: meta.last_page, total: meta.total };
}

/** A name and an address, or a point (`lat` and `lon`); no `radius_meters` takes the default. */
export interface LocationConfigurationRequest {
  name: string;
  address: string;
  lat?: number;
  lon?: number;
  radius_meters?: number;
}

export async function createLocationConfiguration(
  body: LocationConfigurationRequest,
): Promise<LocationConfigurationDetail> {
  return (await request<LocationConfigurationDetail>('POST', `${CONFIGURATIONS}/configurations`, { body })).data;
}

export async function updateLocationConfiguration(
  id: number,
  body: LocationConfigurationRequest,
): Promise<LocationConfigurationDetail> {
  return (await request<LocationConfigurationDetail>('PUT', `${CONFIGURATIONS}/configurations/${id}`, { body })).data;
}

export async function deleteLocationConfiguration(id: number): Promise<void> {
  await request('DELETE', `${CONFIGURATIONS}/configurations/${id}`);
}

/** The outline a configuration at the address would store (422 when no place is found). */
export async function geocodePlace(address: string, signal?: AbortSignal): Promise<PlaceFeature> {
  const params = new URLSearchParams({ address });
  return (await request<PlaceFeature>('GET', `${CONFIGURATIONS}/geocode?${params}`, { signal })).data;
}

/** What became of one line of an imported file. */
export interface ImportedPlace {
  line: number;
  name: string;
  address: string;
  created: boolean;
  fpid?: string;
  message?: string;
}

export interface ImportReport {
  created: number;
  failed: number;
  places: ImportedPlace[];
}

/**
 * Creates a configuration for each line of a CSV file (name and address, or columns named by a
 * header: name, address or lat and lon, radius); each line is reported.
 */
export async function importLocationConfigurations(text: string): Promise<ImportReport> {
  const raw = { contentType: 'text/csv', text };
  return (await request<ImportReport>('POST', `${CONFIGURATIONS}/configurations/import`, { raw })).data;
}
