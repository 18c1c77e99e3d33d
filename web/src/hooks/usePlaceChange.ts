import { useMutation, useQueryClient } from '@tanstack/react-query';
import { beaconKeys, locateKeys, monitorKeys } from '../api/keys';
import { type MentionedLocation, removePlace, restorePlace } from '../api/posts';
import { ApiError, GENERIC_ERROR_MESSAGE } from '../api/transport';
import { useSnackbar } from './useSnackbar';

export interface PlaceChange {
  postId: string;
  place: MentionedLocation;
  /** true puts a removed place back. */
  restore?: boolean;
}

/**
 * Removes a place from a post, or puts it back, for the user's tenant. Every view that shows the
 * post's places (inbox and its map, dashboard, Beacon and Locate results) reloads after.
 */
export function usePlaceChange() {
  const client = useQueryClient();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: ({ postId, place, restore }: PlaceChange) =>
      restore ? restorePlace(postId, place) : removePlace(postId, place),
    onError: (error) =>
      snackbar.show({ text: error instanceof ApiError ? error.message : GENERIC_ERROR_MESSAGE, color: 'error' }),
    onSettled: () =>
      Promise.all(
        [monitorKeys.matches, beaconKeys.all, locateKeys.all].map((queryKey) => client.invalidateQueries({ queryKey })),
      ),
  });
}
