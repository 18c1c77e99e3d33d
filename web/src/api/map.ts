// The map's base layer, as the operator chose it when starting the server (docs/maps.md).
import type { MapBase } from './contracts.gen';
import { request } from './transport';

export type { MapBase } from './contracts.gen';

export async function fetchMapBase(signal?: AbortSignal): Promise<MapBase> {
  return (await request<MapBase>('GET', '/api/v1/map/base', { signal })).data;
}
