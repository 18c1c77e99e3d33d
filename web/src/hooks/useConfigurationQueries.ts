// Server state of the configurations manager. Keys sit under the proximity picker's
// ['configurations'] so one invalidation reloads both.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createLocationConfiguration,
  deleteLocationConfiguration,
  fetchLocationConfigurationPage,
  geocodePlace,
  importLocationConfigurations,
  type LocationConfigurationRequest,
  updateLocationConfiguration,
} from '../api/configurations';
import { configurationKeys } from '../api/keys';

export function useConfigurationPageQuery(page: number, q: string) {
  return useQuery({
    queryKey: configurationKeys.page(page, q),
    queryFn: ({ signal }) => fetchLocationConfigurationPage(page, q, signal),
    // The table keeps its rows while the next page or search loads.
    placeholderData: keepPreviousData,
  });
}

/** The outline of the place an address names, for the editor's map; off while address is empty. */
export function usePlaceQuery(address: string) {
  return useQuery({
    queryKey: configurationKeys.place(address),
    queryFn: ({ signal }) => geocodePlace(address, signal),
    enabled: address.trim() !== '',
    retry: false,
    staleTime: Infinity,
  });
}

/** Creates (no id) or changes a configuration, then reloads every list of them. */
export function useSaveConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: LocationConfigurationRequest }) =>
      id === undefined ? createLocationConfiguration(body) : updateLocationConfiguration(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationKeys.all }),
  });
}

export function useDeleteConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteLocationConfiguration(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationKeys.all }),
  });
}

export function useImportConfigurations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => importLocationConfigurations(text),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationKeys.all }),
  });
}
