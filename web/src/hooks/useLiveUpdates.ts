import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { caseKeys, evidenceKeys, liveKeys, monitorKeys } from '../api/keys';
import { fetchLiveConfig } from '../api/live';
import type { MonitorSearch } from '../api/monitor';
import { connectLive, LIVE_EVENTS } from '../live/liveChannel';
import { applyLiveCounts, applyLiveMatch } from './useMatchesQuery';
import { useExportToasts } from './useExportToasts';
import { applyLiveStory } from './useStoryQueries';
import { useProfile } from './useProfileQuery';
import { useSnackbar } from './useSnackbar';

/**
 * Keeps the Monitor current while it is open: new counts after any change to the user's matches,
 * and new matches in the lists already shown, without a reload. A page framed inside another
 * (enabled false) leaves that to the page around it.
 */
export function useLiveUpdates(enabled: boolean): void {
  const profile = useProfile();
  const queryClient = useQueryClient();
  const { ready: exportReady } = useExportToasts();
  const snackbar = useSnackbar();
  const config = useQuery({
    queryKey: liveKeys.config,
    queryFn: ({ signal }) => fetchLiveConfig(signal),
    staleTime: Infinity,
    enabled,
  });
  useEffect(() => {
    if (!enabled || !config.data) return;
    return connectLive(
      config.data,
      profile.id,
      {
        [LIVE_EVENTS.matchesUpdated]: (payload) => applyLiveCounts(queryClient, payload),
        [LIVE_EVENTS.matchCreated]: (payload) => applyLiveMatch(queryClient, payload),
        [LIVE_EVENTS.exportReady]: (payload) => exportReady(payload),
        [LIVE_EVENTS.storyUpdated]: (payload) => applyLiveStory(queryClient, payload),
        // A case the user can see changed: an open case page or list refetches.
        [LIVE_EVENTS.caseUpdated]: () => void queryClient.invalidateQueries({ queryKey: caseKeys.all }),
        [LIVE_EVENTS.caseMention]: (payload) =>
          snackbar.show({
            text: `${payload.by} mentioned you in the case “${payload.caseName}”.`,
            color: 'info',
            persistent: true,
          }),
        // A saved search's backfill moved on: its progress in the search, and once done its
        // matches in the lists (the counts come with monitor.matches.updated).
        [LIVE_EVENTS.backfillUpdated]: (payload) => {
          queryClient.setQueryData(monitorKeys.search(payload.monitorSearchId), (search?: MonitorSearch) =>
            search ? { ...search, backfill: payload } : search,
          );
          if (payload.status !== 'running') void queryClient.invalidateQueries({ queryKey: monitorKeys.matches });
        },
        // A capture moved on or finished: its dialog, and a case item showing it, refetch the record.
        [LIVE_EVENTS.evidenceUpdated]: (payload) => {
          void queryClient.invalidateQueries({ queryKey: evidenceKeys.record(payload.id) });
          void queryClient.invalidateQueries({ queryKey: caseKeys.evidence(payload.id) });
        },
      },
      // Matches that arrived before the channel was (re)subscribed came with no event.
      () => void queryClient.invalidateQueries({ queryKey: monitorKeys.matches }),
    );
  }, [enabled, config.data, profile.id, queryClient, exportReady, snackbar]);
}
