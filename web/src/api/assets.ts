// The organization's assets (monitor-area.md section 4; docs/monitor-api.md, "Assets").
import type { Asset, AssetType } from './contracts.gen';
import { request } from './transport';

export type { Asset, AssetType } from './contracts.gen';
export { ASSET_TYPES, MAX_ASSET_VALUE_LENGTH } from './contracts.gen';

const ASSETS = '/api/v1/monitor/assets';

export interface AssetRequest {
  type: AssetType;
  value: string;
}

/** Every asset of the organization, by type then value. */
export async function fetchAssets(signal?: AbortSignal): Promise<Asset[]> {
  return (await request<Asset[]>('GET', ASSETS, { signal })).data;
}

export async function createAsset(body: AssetRequest): Promise<Asset> {
  return (await request<Asset>('POST', ASSETS, { body })).data;
}

export async function updateAsset(id: number, body: AssetRequest): Promise<Asset> {
  return (await request<Asset>('PUT', `${ASSETS}/${id}`, { body })).data;
}

export async function deleteAsset(id: number): Promise<void> {
  await request('DELETE', `${ASSETS}/${id}`);
}
