import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { exportFilters } from '../../api/exports';
import type { Match, MatchQuery, Provider } from '../../api/monitor';
import { useConfirm } from '../../hooks/useConfirm';
import { type ActionScope, type MatchAction, useFlagWarning, useMatchActions } from '../../hooks/useMatchActions';
import { useMatchesQuery, useWaitingMatchesQuery } from '../../hooks/useMatchesQuery';
import { useProvidersQuery, useSearchesQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { countOf, formatCount } from '../../lib/countFormat';
import { termsBySearch } from '../../lib/highlight';
import { isFiltered, readInboxQuery, writeInboxQuery } from '../../lib/inboxQuery';
import { EmptyState } from '../EmptyState';
import { ExportDialog } from '../export/ExportDialog';
import { SearchTextFilter } from '../SearchTextFilter';
import { BulkActions } from './BulkActions';
import { InboxToolbar } from './InboxToolbar';
import { useMatchCardActions } from './useMatchCardActions';
import { VirtualMatches } from './VirtualMatches';

export type InboxView = 'grid' | 'list' | 'map';

// Leaflet and the world's shapes load only when the map is first shown.
const MatchMap = lazy(() => import('./MatchMap').then((module) => ({ default: module.MatchMap })));

/**
 * Matches in a grid, a list or on a map, with the filters, selection and bulk actions of the
 * inbox. On a saved search's page it shows that search's matches only.
 */
export function Inbox({ view, searchId }: { view: InboxView; searchId?: number }) {
  const profile = useProfile();
  const confirm = useConfirm();
  const warnBeforeFlag = useFlagWarning();
  const [params, setParams] = useSearchParams();
  const fixed = useMemo(() => (searchId === undefined ? undefined : [searchId]), [searchId]);
  // The address is the source of truth; a stable key keeps the cached pages while it is unchanged.
  const paramsKey = params.toString();
  const query = useMemo(() => readInboxQuery(new URLSearchParams(paramsKey), fixed), [paramsKey, fixed]);
  const everything = useMemo<MatchQuery>(
    () => ({ ...query, filters: [], providers: [], searchText: '', monitorSearchIds: fixed ?? [] }),
    [query, fixed],
  );
  const matchesQuery = useMatchesQuery(query);
  const providersQuery = useProvidersQuery();
  const searchesQuery = useSearchesQuery();
  const runAction = useMatchActions({ filtered: query, all: everything, upTo: matchesQuery.data?.pages[0]?.asOf });
  const [chosen, setChosen] = useState<Set<number>>(() => new Set());
  const [exportOpen, setExportOpen] = useState(false);
  // Without inbox streaming, new matches wait for the user: the server says how many of this
  // list's matches were made after it was read, so the list's count and the waiting ones add up
  // to the header's and the sidebar's (issue 28: 164 shown beside 171).
  const waiting = useWaitingMatchesQuery(
    query,
    matchesQuery.data?.pages[0]?.asOf,
    !profile.is_inbox_streaming_enabled && matchesQuery.isSuccess,
  );
  const arrived = (!profile.is_inbox_streaming_enabled && waiting.data) || 0;

  const matches = useMemo(() => matchesQuery.data?.pages.flatMap((page) => page.matches) ?? [], [matchesQuery.data]);
  const total = matchesQuery.data?.pages[0]?.total ?? 0;
  const providers = useMemo(
    () => new Map<string, Provider>((providersQuery.data ?? []).map((p) => [p.name, p])),
    [providersQuery.data],
  );
  // What each saved search matched on, plus the inbox's own search text.
  const terms = useMemo(
    () => termsBySearch(searchesQuery.data ?? [], query.searchText),
    [searchesQuery.data, query.searchText],
  );

  const changeQuery = (change: Partial<MatchQuery>) => {
    setChosen(new Set());
    setParams((current) => writeInboxQuery(current, change), { replace: true });
  };

  const run = useCallback(
    (action: MatchAction, scope: ActionScope, only?: Match[]) => {
      const targets = only ?? (scope === 'chosen' ? matches.filter((m) => chosen.has(m.matchMeta.matchId)) : matches);
      const go = () => {
        void runAction(action, scope, targets).then(() => {
          if (action.flag === 'is-deleted') setChosen(new Set());
        });
      };
      if (action.flag !== 'is-deleted') {
        warnBeforeFlag(action, go);
        return;
      }
      const what =
        scope === 'all' ? 'every match' : countOf(scope === 'filtered' ? total : targets.length, 'match', 'matches');
      confirm({
        title: 'Delete matches?',
        text: `This deletes ${what} from your inbox. It cannot be undone.`,
        icon: 'warning',
        acceptLabel: 'Delete',
        onAccept: go,
      });
    },
    [matches, chosen, runAction, confirm, total, warnBeforeFlag],
  );

  const choose = useCallback(
    (matchId: number, selected: boolean) =>
      setChosen((current) => {
        const next = new Set(current);
        if (selected) next.add(matchId);
        else next.delete(matchId);
        return next;
      }),
    [],
  );
  const runOne = useCallback((action: MatchAction, match: Match) => run(action, 'chosen', [match]), [run]);
  const { actions: cardActions, dialogs } = useMatchCardActions({
    run: runOne,
    onSelect: choose,
    providers,
    terms,
  });

  const allLoadedChosen = matches.length > 0 && matches.every((m) => chosen.has(m.matchMeta.matchId));

  return (
    <Stack sx={{ flex: 1, minHeight: 0 }}>
      <Stack spacing={1.5} sx={{ px: { xs: 1, md: 2 }, pt: 1 }}>
        <SearchTextFilter />
        <InboxToolbar
          query={query}
          onChange={changeQuery}
          searches={searchId === undefined ? searchesQuery.data : undefined}
        />
        {view !== 'map' && (
          <BulkActions
            chosen={chosen.size}
            loaded={matches.length}
            filteredTotal={total}
            filtered={isFiltered(query) || (searchId === undefined && query.monitorSearchIds.length > 0)}
            allLoadedChosen={allLoadedChosen}
            onChooseLoaded={(all) => setChosen(all ? new Set(matches.map((m) => m.matchMeta.matchId)) : new Set())}
            onRun={(action, scope) => run(action, scope)}
          />
        )}
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', minHeight: 36 }}>
          <Box role="status" aria-live="polite" sx={{ typography: 'body2', color: 'text.secondary' }}>
            {matchesQuery.isSuccess && countOf(total, 'match', 'matches')}
          </Box>
          {matchesQuery.isSuccess && total > 0 && (
            <Button size="small" startIcon={<FileDownloadOutlined />} onClick={() => setExportOpen(true)}>
              Export
            </Button>
          )}
        </Stack>
      </Stack>
      {arrived > 0 && (
        <Alert
          severity="info"
          sx={{ mx: { xs: 1, md: 2 }, mt: 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => void matchesQuery.refetch()}>
              Show them
            </Button>
          }
        >
          {arrived === 1 ? '1 new match has arrived.' : `${formatCount(arrived)} new matches have arrived.`}
        </Alert>
      )}
      {matchesQuery.isPending && (
        <Box sx={{ display: 'grid', placeItems: 'center', flex: 1 }}>
          <CircularProgress aria-label="Loading matches" />
        </Box>
      )}
      {matchesQuery.isError && (
        <Alert
          severity="error"
          sx={{ m: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void matchesQuery.refetch()}>
              Try again
            </Button>
          }
        >
          {matchesQuery.error.message}
        </Alert>
      )}
      {matchesQuery.isSuccess && matches.length === 0 && (
        <Box sx={{ p: 2 }}>
          <EmptyState
            icon={InboxOutlined}
            title={isFiltered(query) ? 'No matches for these filters' : 'No matches yet'}
          >
            {isFiltered(query)
              ? 'Change or clear the filters to see more.'
              : 'Posts that match your saved searches land here as they arrive.'}
          </EmptyState>
        </Box>
      )}
      {matchesQuery.isSuccess && matches.length > 0 && view !== 'map' && (
        <VirtualMatches
          variant={view}
          matches={matches}
          total={total}
          providers={providers}
          selected={chosen}
          terms={terms}
          blurMedia={profile.media_sensitivity === 'blur'}
          hasNextPage={matchesQuery.hasNextPage}
          fetchingNextPage={matchesQuery.isFetchingNextPage}
          fetchNextPage={() => void matchesQuery.fetchNextPage()}
          actions={cardActions}
        />
      )}
      {matchesQuery.isSuccess && matches.length > 0 && view === 'map' && (
        <Suspense fallback={<CircularProgress aria-label="Loading the map" sx={{ m: 'auto' }} />}>
          <MatchMap
            matches={matches}
            providers={providers}
            onLoadMore={
              matchesQuery.hasNextPage && !matchesQuery.isFetchingNextPage
                ? () => void matchesQuery.fetchNextPage()
                : undefined
            }
          />
        </Suspense>
      )}
      {dialogs}
      {exportOpen && (
        <ExportDialog
          open
          onClose={() => setExportOpen(false)}
          {...(chosen.size > 0
            ? {
                selection: { source: 'matches', matchIds: [...chosen] },
                what: countOf(chosen.size, 'chosen match', 'chosen matches'),
                count: chosen.size,
              }
            : {
                selection: { source: 'matches', filters: exportFilters(query) },
                what: isFiltered(query) ? 'the matches the filters select' : 'every match of this inbox',
                count: total,
              })}
        />
      )}
    </Stack>
  );
}
