import { useQuery } from '@tanstack/react-query';
import { mapKeys } from '../api/keys';
import { fetchMapBase, type MapBase } from '../api/map';
import { OUTLINES } from '../lib/baseMap';

/**
 * The base map the server offers, undefined while it loads; the outlines when it cannot say, so
 * a map still shows. It changes only when the server restarts.
 */
export function useMapBase(): MapBase | undefined {
  const { data, isError } = useQuery({
    queryKey: mapKeys.base,
    queryFn: ({ signal }) => fetchMapBase(signal),
    staleTime: Infinity,
  });
  return data ?? (isError ? OUTLINES : undefined);
}
