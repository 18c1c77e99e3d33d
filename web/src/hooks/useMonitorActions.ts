// What users do to groups and saved searches, with the confirmations, messages and navigation
// the spec asks for (monitor-area.md sections 2, 4 and 8).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  createGroup,
  createSearch,
  deleteGroup,
  deleteSearch,
  detachGroup,
  detachSearch,
  type Group,
  type GroupRequest,
  type MonitorSearch,
  type MonitorSearchSummary,
  moveSearches,
  type SearchRequest,
  type SearchSetting,
  updateGroup,
  updateSearch,
  updateSearchSetting,
} from '../api/monitor';
import type { SharingSave } from '../components/SharingDialog';
import { monitorAreaBase } from '../lib/navigation';
import { toRequest, formFromSearch } from '../lib/searchForm';
import { useConfirm } from './useConfirm';
import { useFailureReport } from './useFailureReport';
import { providersQuery, useRefreshMonitor } from './useMonitorQueries';
import { useSnackbar } from './useSnackbar';

/**
 * A change to groups or searches: reported and followed by a refresh of what the Monitor shows. A
 * failure is reported too (a limit in the limit dialog), unless a dialog that shows it asks for it
 * back (reportFailure false).
 */
function useMonitorMutation<V, D = unknown>({
  mutationFn,
  success,
  reportFailure = true,
}: {
  mutationFn: (variables: V) => Promise<D>;
  success: (variables: V) => string;
  reportFailure?: boolean;
}) {
  const snackbar = useSnackbar();
  const report = useFailureReport();
  const refresh = useRefreshMonitor();
  return useMutation({
    mutationFn,
    onSuccess: async (_data, variables) => {
      snackbar.show({ color: 'success', text: success(variables) });
      await refresh();
    },
    // A limit (resuming past the monthly data limit, adding past an asset limit) opens its dialog.
    onError: (error: unknown) => {
      if (reportFailure) report(error);
    },
  });
}

/** Whether a change whose failure was already reported went through. */
const done = (change: Promise<unknown>): Promise<boolean> =>
  change.then(
    () => true,
    () => false,
  );

/** After a delete or detach, every page but the groups page leads to the dashboard. */
function useLeaveAfterRemoval() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return useCallback(() => {
    const base = monitorAreaBase(pathname);
    if (pathname.replace(/\/$/, '') !== `${base}/groups`) void navigate(`${base}/dashboard`);
  }, [pathname, navigate]);
}

/** Creates a saved search, or saves an edited one (id); the Monitor reloads behind the builder. */
export function useSaveSearch() {
  const refresh = useRefreshMonitor();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | undefined; body: SearchRequest }) =>
      id === undefined ? createSearch(body) : updateSearch(id, body),
    onSuccess: () => void refresh(),
  });
}

/** Creates a group; the form that asks for it says what follows. */
export function useCreateGroup() {
  return useMutation({ mutationFn: createGroup });
}

export function useGroupActions() {
  const confirm = useConfirm();
  const leave = useLeaveAfterRemoval();
  const { mutateAsync: update, isPending: updating } = useMonitorMutation({
    mutationFn: ({ group, body }: { group: Group; body: GroupRequest }) => updateGroup(group.id, body),
    success: () => 'Group updated',
    reportFailure: false,
  });
  const { mutateAsync: favourite } = useMonitorMutation({
    mutationFn: (group: Group) => updateGroup(group.id, { isFavourite: !group.isFavourite }),
    success: (group) => (group.isFavourite ? 'Removed from favourites' : 'Added to favourites'),
  });
  const { mutateAsync: remove } = useMonitorMutation({
    mutationFn: (group: Group) => deleteGroup(group.id),
    success: () => 'Group deleted',
  });
  const { mutateAsync: detach } = useMonitorMutation({
    mutationFn: (group: Group) => detachGroup(group.id),
    success: () => 'Removed access',
  });
  const actions = useMemo(
    () => ({
      /** For dialogs: a failure is thrown back to them. */
      update: (group: Group, body: GroupRequest) => update({ group, body }),
      favourite: (group: Group) => done(favourite(group)),
      remove: (group: Group) =>
        confirm({
          title: `Delete “${group.name}”?`,
          text: 'Its saved searches move to their owners’ Uncategorized groups. This cannot be undone.',
          icon: 'warning',
          acceptLabel: 'Delete',
          onAccept: () => void done(remove(group)).then((removed) => removed && leave()),
        }),
      detach: (group: Group) =>
        confirm({
          title: `Leave “${group.name}”?`,
          text: 'You will no longer see this group or its saved searches unless someone shares it with you again.',
          icon: 'warning',
          acceptLabel: 'Leave',
          onAccept: () => void done(detach(group)).then((left) => left && leave()),
        }),
    }),
    [update, favourite, remove, detach, confirm, leave],
  );
  return { ...actions, updating };
}

export function useSearchActions() {
  const confirm = useConfirm();
  const leave = useLeaveAfterRemoval();
  const queryClient = useQueryClient();
  const { mutateAsync: setting } = useMonitorMutation({
    mutationFn: ({ search, change }: { search: MonitorSearchSummary; change: SearchSetting; success: string }) =>
      updateSearchSetting(search.id, change),
    success: ({ success }) => success,
  });
  const { mutateAsync: move } = useMonitorMutation({
    mutationFn: ({ searches, groupId }: { searches: MonitorSearchSummary[]; groupId: number }) =>
      moveSearches(
        searches.map((s) => s.id),
        groupId,
      ),
    success: ({ searches }) => (searches.length === 1 ? 'Search moved' : 'Searches moved'),
  });
  const { mutateAsync: share, isPending: sharing } = useMonitorMutation({
    mutationFn: async ({ search, sharedUsers }: { search: MonitorSearch; sharedUsers: SharingSave['sharedUsers'] }) => {
      const providers = await queryClient.fetchQuery(providersQuery);
      await updateSearch(search.id, { ...toRequest(formFromSearch(search, providers)), shared_users: sharedUsers });
    },
    success: () => 'Sharing updated',
    reportFailure: false,
  });
  const { mutateAsync: remove } = useMonitorMutation({
    mutationFn: (search: MonitorSearchSummary) => deleteSearch(search.id),
    success: () => 'Search deleted',
  });
  const { mutateAsync: detach } = useMonitorMutation({
    mutationFn: (search: MonitorSearchSummary) => detachSearch(search.id),
    success: () => 'Removed access',
  });
  const actions = useMemo(() => {
    const change = (search: MonitorSearchSummary, change: SearchSetting, success: string) =>
      done(setting({ search, change, success }));
    return {
      favourite: (search: MonitorSearchSummary) =>
        change(
          search,
          { setting: 'favourite', favourite: !search.favourite },
          search.favourite ? 'Removed from favourites' : 'Added to favourites',
        ),
      resume: (search: MonitorSearchSummary) => change(search, { setting: 'enable', enabled: true }, 'Search resumed'),
      /**
       * Pauses after a confirmation; with doNotShowAgainCookie the confirmation offers "Do not
       * show again" and, once ticked, pauses straight away (Locate's saved searches).
       */
      pause: (search: MonitorSearchSummary, options: { doNotShowAgainCookie?: string } = {}) =>
        confirm({
          title: `Pause “${search.value}”?`,
          text: 'While it is paused the search collects nothing, and posts published meanwhile may be lost even after you resume it.',
          icon: 'warning',
          acceptLabel: 'Pause',
          doNotShowAgainCookie: options.doNotShowAgainCookie,
          onAccept: () => void change(search, { setting: 'enable', enabled: false }, 'Search paused'),
        }),
      /** Hides the search from the user's Locate saved-search list (a hidden stream), or shows it. */
      hide: (search: MonitorSearchSummary) =>
        change(
          search,
          { setting: 'hidden', hidden: !search.hidden },
          search.hidden ? `“${search.value}” shown again` : `“${search.value}” hidden`,
        ),
      raiseStreamingLimit: (search: MonitorSearch) =>
        change(search, { setting: 'streamingOverride', percolate_limiter_override: true }, 'Streaming reactivated'),
      raiseFirehoseLimit: (search: MonitorSearch) =>
        change(search, { setting: 'gnipOverride', gnip_limiter_override: true }, 'Firehose reactivated'),
      move: (searches: MonitorSearchSummary[], groupId: number) => done(move({ searches, groupId })),
      /** For the sharing dialog: a failure is thrown back to it. */
      share: (search: MonitorSearch, sharedUsers: SharingSave['sharedUsers']) => share({ search, sharedUsers }),
      remove: (search: MonitorSearchSummary) =>
        confirm({
          title: `Delete “${search.value}”?`,
          text: 'The search stops and its matches are deleted for everyone. This cannot be undone.',
          icon: 'warning',
          acceptLabel: 'Delete',
          onAccept: () => void done(remove(search)).then((removed) => removed && leave()),
        }),
      detach: (search: MonitorSearchSummary) =>
        confirm({
          title: `Leave “${search.value}”?`,
          text: 'You will no longer see this search or its matches unless someone shares it with you again.',
          icon: 'warning',
          acceptLabel: 'Leave',
          onAccept: () => void done(detach(search)).then((left) => left && leave()),
        }),
    };
  }, [setting, move, share, remove, detach, confirm, leave]);
  return { ...actions, sharing };
}
