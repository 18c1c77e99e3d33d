import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { monitorKeys } from '../api/keys';
import {
  type Match,
  type MatchFlag,
  type MatchQuery,
  type UpdateResult,
  updateAllMatches,
  updateMatches,
} from '../api/monitor';
import { countOf, formatCount } from '../lib/countFormat';
import { useConfirm } from './useConfirm';
import { patchLoadedMatches, removeLoadedMatches } from './useMatchesQuery';
import { useProfile } from './useProfileQuery';
import { useSnackbar } from './useSnackbar';

/** Set for good once a user ticks "Do not show again" on the flag warning. */
export const SKIP_FLAG_WARNING_COOKIE = 'sightline_skip_flag_warning';

/** Which matches a bulk action applies to. */
export type ActionScope = 'chosen' | 'loaded' | 'filtered' | 'all';

export interface MatchAction {
  flag: MatchFlag;
  value: boolean;
}

const doneText: Record<MatchFlag, [string, string]> = {
  'is-flagged': ['flagged', 'unflagged'],
  'is-read': ['marked as read', 'marked as unread'],
  'is-deleted': ['deleted', 'restored'],
};

function applied(match: Match, { flag, value }: MatchAction): Match {
  const meta = { ...match.matchMeta };
  if (flag === 'is-flagged') meta.isFlagged = value;
  if (flag === 'is-read') meta.isRead = value;
  return { ...match, matchMeta: meta };
}

/** The message after an action: how many changed, and a warning when permissions held some back. */
export function resultMessage(
  action: MatchAction,
  result: UpdateResult,
): { text: string; color: 'success' | 'warning' } {
  const what = doneText[action.flag][action.value ? 0 : 1];
  if (result.updatedCount < result.expectedCount) {
    return {
      color: 'warning',
      text: `Only ${formatCount(result.updatedCount)} of ${formatCount(result.expectedCount)} matches were ${what}: the others belong to searches you can only view.`,
    };
  }
  const count = result.updatedCount;
  return { color: 'success', text: `${formatCount(count)} ${count === 1 ? 'match' : 'matches'} ${what}` };
}

/**
 * Flags, marks read or deletes matches: the chosen or loaded ones by id, or every match the
 * filters (or the whole scope) select. Loaded copies change in place after the server agrees;
 * broad actions reload the lists.
 */
export function useMatchActions({
  filtered,
  all,
  upTo,
}: {
  filtered: MatchQuery;
  all: MatchQuery;
  /** The list's asOf: broad actions leave alone what arrived after it. */
  upTo?: number;
}) {
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  return useCallback(
    async (action: MatchAction, scope: ActionScope, matches: Match[] = []) => {
      try {
        let result: UpdateResult;
        if (scope === 'chosen' || scope === 'loaded') {
          result = await updateMatches(
            action.flag,
            matches.map((m) => m.matchMeta.matchId),
            action.value,
          );
          // Reading is personal; flagging and deleting need edit access to the match's search.
          const changed = matches.filter((m) => action.flag === 'is-read' || m.matchMeta.canEdit);
          const ids = changed.map((m) => m.matchMeta.matchId);
          if (action.flag === 'is-deleted') removeLoadedMatches(queryClient, ids);
          else patchLoadedMatches(queryClient, ids, (m) => applied(m, action));
        } else {
          result = await updateAllMatches(action.flag, scope === 'filtered' ? filtered : all, action.value, upTo);
          await queryClient.invalidateQueries({ queryKey: monitorKeys.matchLists });
        }
        void queryClient.invalidateQueries({ queryKey: monitorKeys.counts });
        snackbar.show(resultMessage(action, result));
      } catch (error) {
        snackbar.show({
          color: 'error',
          text: error instanceof Error ? error.message : 'Something went wrong. Please try again.',
        });
      }
    },
    [queryClient, snackbar, filtered, all, upTo],
  );
}

/**
 * Runs an action on matches, first warning, when it flags them, that a flag does not keep a
 * match: flags are easily taken for a way to keep one (monitor-area.md: matches are kept 30
 * days, here the server's retention).
 */
export function useFlagWarning() {
  const confirm = useConfirm();
  const { retentionDays } = useProfile();
  return useCallback(
    (action: MatchAction, go: () => void) => {
      if (action.flag !== 'is-flagged' || !action.value) {
        go();
        return;
      }
      confirm({
        title: 'Flagging matches',
        text:
          `Flags are yours alone: others who see the search do not see them. A flagged match is still ` +
          `deleted with the others after ${countOf(retentionDays, 'day', 'days')}; export the matches you need to keep.`,
        icon: 'info',
        acceptLabel: 'Flag',
        onAccept: go,
        doNotShowAgainCookie: SKIP_FLAG_WARNING_COOKIE,
      });
    },
    [confirm, retentionDays],
  );
}
