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
