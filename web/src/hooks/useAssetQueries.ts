// Server state of the organization's assets.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AssetRequest, createAsset, deleteAsset, fetchAssets, updateAsset } from '../api/assets';
import { assetKeys } from '../api/keys';

export function useAssetsQuery() {
  return useQuery({ queryKey: assetKeys.all, queryFn: ({ signal }) => fetchAssets(signal) });
}

/** Adds (no id) or changes an asset, then reloads the list. */
export function useSaveAsset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: AssetRequest }) =>
      id === undefined ? createAsset(body) : updateAsset(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assetKeys.all }),
  });
}

export function useDeleteAsset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteAsset(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assetKeys.all }),
  });
}
