// What users do to groups and saved searches, with the confirmations, messages and navigation
// the spec asks for (monitor-area.md sections 2, 4 and 8).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { monitorKeys } from '../api/keys';
import {
  deleteGroup,
  deleteSearch,
  detachGroup,
  detachSearch,
  type Group,
  type GroupRequest,
  type MonitorSearch,
  type MonitorSearchSummary,
  moveSearches,
  type SearchSetting,
  updateGroup,
  updateSearch,
  updateSearchSetting,
} from '../api/monitor';
import type { SharingSave } from '../components/SharingDialog';
import { monitorAreaBase } from '../lib/navigation';
import { toRequest, formFromSearch } from '../lib/searchForm';
import { useConfirm } from './useConfirm';
import { providersQuery, useRefreshMonitor } from './useMonitorQueries';
import { useSnackbar } from './useSnackbar';

const GENERIC_FAILURE = 'Something went wrong. Please try again.';

/**
 * Runs a change, reports it, and refreshes what the Monitor shows. A failure is reported too,
 * unless a dialog that shows it asks for it back (rethrow).
 */
function useRunner() {
  const snackbar = useSnackbar();
  const refresh = useRefreshMonitor();
  return useCallback(
    async (change: () => Promise<unknown>, success: string, { rethrow = false } = {}): Promise<boolean> => {
      try {
        await change();
      } catch (error) {
        if (rethrow) throw error;
        snackbar.show({ color: 'error', text: error instanceof Error ? error.message : GENERIC_FAILURE });
        return false;
      }
      snackbar.show({ color: 'success', text: success });
      await refresh();
      return true;
    },
    [snackbar, refresh],
  );
}

/** After a delete or detach, every page but the groups page leads to the dashboard. */
function useLeaveAfterRemoval() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return useCallback(() => {
    const base = monitorAreaBase(pathname);
    if (pathname.replace(/\/$/, '') !== `${base}/groups`) void navigate(`${base}/dashboard`);
  }, [pathname, navigate]);
}

export function useGroupActions() {
  const run = useRunner();
  const confirm = useConfirm();
  const leave = useLeaveAfterRemoval();
  return useMemo(
    () => ({
      /** For dialogs: a failure is thrown back to them. */
      update: (group: Group, body: GroupRequest) =>
        run(() => updateGroup(group.id, body), 'Group updated', { rethrow: true }),
      favourite: (group: Group) =>
        run(
          () => updateGroup(group.id, { isFavourite: !group.isFavourite }),
          group.isFavourite ? 'Removed from favourites' : 'Added to favourites',
        ),
      remove: (group: Group) =>
        confirm({
          title: `Delete “${group.name}”?`,
          text: 'Its saved searches move to their owners’ Uncategorized groups. This cannot be undone.',
          icon: 'warning',
          acceptLabel: 'Delete',
          onAccept: () => void run(() => deleteGroup(group.id), 'Group deleted').then((done) => done && leave()),
        }),
      detach: (group: Group) =>
        confirm({
          title: `Leave “${group.name}”?`,
          text: 'You will no longer see this group or its saved searches unless someone shares it with you again.',
          icon: 'warning',
          acceptLabel: 'Leave',
          onAccept: () => void run(() => detachGroup(group.id), 'Removed access').then((done) => done && leave()),
        }),
    }),
    [run, confirm, leave],
  );
}

export function useSearchActions() {
  const run = useRunner();
  const confirm = useConfirm();
  const leave = useLeaveAfterRemoval();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const setting = (search: MonitorSearchSummary, change: SearchSetting, success: string) =>
      run(() => updateSearchSetting(search.id, change), success);
    return {
      favourite: (search: MonitorSearchSummary) =>
        setting(
          search,
          { setting: 'favourite', favourite: !search.favourite },
          search.favourite ? 'Removed from favourites' : 'Added to favourites',
        ),
      resume: (search: MonitorSearchSummary) => setting(search, { setting: 'enable', enabled: true }, 'Search resumed'),
      pause: (search: MonitorSearchSummary) =>
        confirm({
          title: `Pause “${search.value}”?`,
          text: 'While it is paused the search collects nothing, and posts published meanwhile may be lost even after you resume it.',
          icon: 'warning',
          acceptLabel: 'Pause',
          onAccept: () => void setting(search, { setting: 'enable', enabled: false }, 'Search paused'),
        }),
      raiseStreamingLimit: (search: MonitorSearch) =>
        setting(search, { setting: 'streamingOverride', percolate_limiter_override: true }, 'Streaming reactivated'),
      raiseFirehoseLimit: (search: MonitorSearch) =>
        setting(search, { setting: 'gnipOverride', gnip_limiter_override: true }, 'Firehose reactivated'),
      move: (searches: MonitorSearchSummary[], groupId: number) =>
        run(
          () =>
            moveSearches(
              searches.map((s) => s.id),
              groupId,
            ),
          searches.length === 1 ? 'Search moved' : 'Searches moved',
        ),
      /** For the sharing dialog: a failure is thrown back to it. */
      share: async (search: MonitorSearch, sharedUsers: SharingSave['sharedUsers']) => {
        const providers = await queryClient.fetchQuery(providersQuery);
        const body = { ...toRequest(formFromSearch(search, providers)), shared_users: sharedUsers };
        await run(() => updateSearch(search.id, body), 'Sharing updated', { rethrow: true });
        await queryClient.invalidateQueries({ queryKey: monitorKeys.search(search.id) });
      },
      remove: (search: MonitorSearchSummary) =>
        confirm({
          title: `Delete “${search.value}”?`,
          text: 'The search stops and its matches are deleted for everyone. This cannot be undone.',
          icon: 'warning',
          acceptLabel: 'Delete',
          onAccept: () => void run(() => deleteSearch(search.id), 'Search deleted').then((done) => done && leave()),
        }),
      detach: (search: MonitorSearchSummary) =>
        confirm({
          title: `Leave “${search.value}”?`,
          text: 'You will no longer see this search or its matches unless someone shares it with you again.',
          icon: 'warning',
          acceptLabel: 'Leave',
          onAccept: () => void run(() => detachSearch(search.id), 'Removed access').then((done) => done && leave()),
        }),
    };
  }, [run, confirm, leave, queryClient]);
}
