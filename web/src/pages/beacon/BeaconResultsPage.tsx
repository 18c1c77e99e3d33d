import AddAlertOutlined from '@mui/icons-material/AddAlertOutlined';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { SearchPage, SearchRequest, SearchSort } from '../../api/beacon';
import type { Provider } from '../../api/monitor';
import { AdvancedSearchDialog } from '../../components/beacon/AdvancedSearchDialog';
import { ExportDialog } from '../../components/export/ExportDialog';
import { BeaconSearchBar } from '../../components/beacon/BeaconSearchBar';
import { BreachSearchDialog } from '../../components/beacon/BreachSearchDialog';
import { LoadMoreButton } from '../../components/beacon/LoadMoreButton';
import { NoResults, SearchSuggestions } from '../../components/beacon/SearchSuggestions';
import { ResultList } from '../../components/beacon/ResultList';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import {
  useBeaconAnalytics,
  useBeaconSearch,
  useFlagActions,
  useFlaggedQuery,
  usePostFlags,
  usePostMarks,
  useRecordSearch,
} from '../../hooks/useBeaconQueries';
import { useConfirm } from '../../hooks/useConfirm';
import { useProvidersQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSearchBuilder } from '../../hooks/useSearchBuilder';
import {
  availableTabs,
  type BeaconSearch,
  type DateShortcut,
  DATE_SHORTCUTS,
  historyRequest,
  newSearch,
  requestFor,
  searchFromParams,
  searchParams,
  SORTS,
  type TabDefinition,
  tabOf,
  type BeaconRequest,
  withDates,
} from '../../lib/beaconSearch';
import { AnalyticsPanel } from '../../components/analytics/AnalyticsPanel';
import { formatCount, resultTotal } from '../../lib/countFormat';
import { SearchErrorPage } from '../../components/SearchErrorPage';
import { searchError } from '../../lib/searchError';
import { termsOf } from '../../lib/highlight';

/** Beacon's results: the search bar, the tabs, the filters and the results of the chosen tab. */
export function BeaconResultsPage() {
  const [params, setParams] = useSearchParams();
  const paramsKey = params.toString();
  const search = useMemo(() => searchFromParams(new URLSearchParams(paramsKey)), [paramsKey]);
  const navigate = useNavigate();
  const profile = useProfile();
  const builder = useSearchBuilder();
  const record = useRecordSearch();
  const providersQuery = useProvidersQuery();
  const providers = useMemo(
    () => new Map((providersQuery.data ?? []).map((p) => [p.name, p] as const)),
    [providersQuery.data],
  );
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [breachOpen, setBreachOpen] = useState(false);
  const [showAnalytics, setShowAnalytics] = useState(false);
  // The search to export, its date shortcut made absolute when the dialog opened.
  const [exportSearch, setExportSearch] = useState<SearchRequest | null>(null);

  // Until the data sources are known only the asked-for tab shows; then a tab none of whose
  // sources is available is left out, and a link to one lands on the first tab.
  const tabs = useMemo(
    () => (providersQuery.data ? availableTabs(providersQuery.data) : [tabOf(search.tab)]),
    [providersQuery.data, search.tab],
  );
  const tab = tabs.find((t) => t.id === search.tab) ?? tabs[0]!;
  const request = useMemo(
    () =>
      tab.category && providersQuery.data ? requestFor(search, tab, (name) => providers.get(name)?.category) : null,
    [search, tab, providers, providersQuery.data],
  );
  const terms = useMemo(() => termsOf(search.query), [search.query]);

  if (search.query === '' && search.authors.length === 0 && search.boards.length === 0) {
    return <Navigate to="/beacon" replace />;
  }

  const go = (next: BeaconSearch, remember = false) => {
    setParams(searchParams(next));
    if (remember) record.mutate({ category: tabOf(next.tab).category ?? 'all', request: historyRequest(next) });
  };

  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
        <Typography variant="h2" component="h1">
          Beacon
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button startIcon={<TuneOutlined />} onClick={() => setAdvancedOpen(true)}>
            Advanced search
          </Button>
          <Button component={RouterLink} to="/history" startIcon={<HistoryOutlined />}>
            History
          </Button>
          {request && tab.category && (
            <Button
              startIcon={<FileDownloadOutlined />}
              onClick={() => setExportSearch(withDates(request, Date.now()))}
            >
              Export
            </Button>
          )}
        </Stack>
      </Stack>
      <BeaconSearchBar
        key={search.query}
        initialQuery={search.query}
        allowEmpty={search.authors.length > 0 || search.boards.length > 0}
        onSearch={(query) => go({ ...search, query }, true)}
        onClear={() => void navigate('/beacon')}
        onBreachSearch={() => setBreachOpen(true)}
      />
      <Tabs
        value={tab.id}
        onChange={(_event, id: string) => go({ ...search, tab: tabOf(id).id })}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label="Result categories"
        sx={{ borderBottom: 1, borderColor: 'divider', mt: 1 }}
      >
        {tabs.map((t) => (
          <Tab key={t.id} value={t.id} label={t.label} />
        ))}
      </Tabs>
      {tab.id === 'flagged' ? (
        <FlaggedPanel providers={providers} terms={terms} blurMedia={profile.media_sensitivity === 'blur'} />
      ) : (
        <>
          <Filters
            search={search}
            tab={tab}
            providers={providersQuery.data ?? []}
            onChange={(next) => go(next)}
            analytics={showAnalytics}
            onAnalytics={request ? () => setShowAnalytics((on) => !on) : undefined}
            onSave={() => {
              const dated = request && withDates(request, Date.now());
              builder.create({
                prefill: {
                  keywords: search.query,
                  author: search.authors.join(', '),
                  boards: search.boards,
                  providers: dated?.providers ?? [],
                  startDate: dated?.startDate ? new Date(dated.startDate) : null,
                  endDate: dated?.endDate ? new Date(dated.endDate) : null,
                },
              });
            }}
          />
          {request === null && providersQuery.isSuccess ? (
            <EmptyState icon={SearchOffOutlined} title="Nothing to search in this tab">
              None of the data sources you chose belongs to {tab.label}. Choose others in the data-source filter, or
              look in another tab.
            </EmptyState>
          ) : (
            <>
              {showAnalytics && request && (
                <BeaconAnalytics
                  tab={tab}
                  request={request}
                  onWord={(word) => go({ ...search, query: `${search.query} ${word}`.trim() }, true)}
                />
              )}
              <ResultsPanel
                key={JSON.stringify(request)}
                tab={tab}
                request={request}
                providers={providers}
                terms={terms}
                blurMedia={profile.media_sensitivity === 'blur'}
                onSuggestion={(query) => go({ ...search, query }, true)}
              />
            </>
          )}
        </>
      )}
      <AdvancedSearchDialog
        open={advancedOpen}
        current={search}
        onClose={() => setAdvancedOpen(false)}
        onSearch={(changed) => {
          setAdvancedOpen(false);
          go({ ...search, ...changed }, true);
        }}
      />
      <BreachSearchDialog
        open={breachOpen}
        onClose={() => setBreachOpen(false)}
        onSearch={(query) => {
          setBreachOpen(false);
          go({ ...newSearch(query), tab: 'breaches' }, true);
        }}
      />
      {exportSearch && tab.category && (
        <ExportDialog
          open
          onClose={() => setExportSearch(null)}
          selection={{ source: 'beacon', search: exportSearch, category: tab.category }}
          what={`the results of “${search.query || search.authors.join(', ')}” in ${tab.label}`}
        />
      )}
    </Box>
  );
}

/** Sort, dates and data sources of the search, and saving it as a monitor search. */
function Filters({
  search,
  tab,
  providers,
  onChange,
  onSave,
  analytics,
  onAnalytics,
}: {
  search: BeaconSearch;
  tab: TabDefinition;
  providers: Provider[];
  onChange: (next: BeaconSearch) => void;
  onSave: () => void;
  analytics: boolean;
  /** Shows or hides the analytics; absent when the tab has nothing to analyse. */
  onAnalytics: (() => void) | undefined;
}) {
  const offered = providers.filter((p) =>
    tab.providers ? tab.providers.includes(p.name) : tab.category === 'all' || p.category === tab.category,
  );
  const window = search.from !== undefined || search.to !== undefined;
  const crawledWindow = search.crawledFrom !== undefined || search.crawledTo !== undefined;
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ my: 2, alignItems: { md: 'center' } }}>
      <FormControl size="small" sx={{ minWidth: 220 }}>
        <InputLabel id="beacon-sort">Sort by</InputLabel>
        <Select
          labelId="beacon-sort"
          label="Sort by"
          value={search.sort}
          onChange={(event) => onChange({ ...search, sort: event.target.value as SearchSort })}
        >
          {SORTS.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.label}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <FormControl size="small" sx={{ minWidth: 180 }}>
        <InputLabel id="beacon-dates">Published</InputLabel>
        <Select
          labelId="beacon-dates"
          label="Published"
          value={window ? 'window' : search.range}
          onChange={(event) =>
            onChange({ ...search, range: event.target.value as DateShortcut, from: undefined, to: undefined })
          }
        >
          {window && (
            <MenuItem value="window" disabled>
              Chosen dates
            </MenuItem>
          )}
          {DATE_SHORTCUTS.map((d) => (
            <MenuItem key={d.id} value={d.id}>
              {d.label}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <FormControl size="small" sx={{ minWidth: 160 }}>
        <InputLabel id="beacon-crawled">Crawled</InputLabel>
        <Select
          labelId="beacon-crawled"
          label="Crawled"
          value={crawledWindow ? 'window' : 'default'}
          onChange={() => onChange({ ...search, crawledFrom: undefined, crawledTo: undefined })}
        >
          {crawledWindow && (
            <MenuItem value="window" disabled>
              Chosen dates
            </MenuItem>
          )}
          {/* The server's default (search-side.md section 9); the advanced search chooses dates. */}
          <MenuItem value="default">Past two years</MenuItem>
        </Select>
      </FormControl>
      <FormControl size="small" sx={{ minWidth: 220, maxWidth: 360 }}>
        <InputLabel id="beacon-providers" shrink>
          Data sources
        </InputLabel>
        <Select
          labelId="beacon-providers"
          multiple
          value={search.providers.filter((p) => offered.some((o) => o.name === p))}
          onChange={(event) => {
            const value = event.target.value;
            onChange({ ...search, providers: typeof value === 'string' ? value.split(',') : value });
          }}
          input={<OutlinedInput notched label="Data sources" />}
          renderValue={(chosen) =>
            chosen.length === 0
              ? 'All'
              : chosen.map((name) => offered.find((p) => p.name === name)?.displayName ?? name).join(', ')
          }
          displayEmpty
        >
          {offered.map((p) => (
            <MenuItem key={p.name} value={p.name}>
              {p.displayName}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <Box sx={{ flex: 1 }} />
      <ToggleButton value="analytics" size="small" selected={analytics} onChange={onAnalytics} disabled={!onAnalytics}>
        <InsightsOutlined fontSize="small" sx={{ mr: 0.5 }} />
        Analytics
      </ToggleButton>
      <Button variant="outlined" startIcon={<AddAlertOutlined />} onClick={onSave}>
        Save as monitor search
      </Button>
    </Stack>
  );
}

/** What a failed search says: the server's word for limits and bad input, else the spec's. */

/** The results of a tab's search, with load-more and next-page. */
function ResultsPanel({
  tab,
  request,
  providers,
  terms,
  blurMedia,
  onSuggestion,
}: {
  tab: TabDefinition;
  request: ReturnType<typeof requestFor>;
  providers: Map<string, Provider>;
  terms: ReturnType<typeof termsOf>;
  blurMedia: boolean;
  /** Searches again with the query of a suggestion the user chose. */
  onSuggestion: (query: string) => void;
}) {
  const results = useBeaconSearch(tab.category, request);
  const flags = usePostFlags();
  const marks = usePostMarks(results.data?.pages.flatMap((p) => p.documents) ?? []);
  // null: every loaded page, one after the other (load more); a number: that page alone.
  const [shownPage, setShownPage] = useState<number | null>(null);

  if (results.isPending) return <ResultsSkeleton />;
  if (results.isError && !results.data) {
    return <SearchErrorPage error={results.error} fallback="Search failed" onRetry={() => void results.refetch()} />;
  }
  const pages: SearchPage[] = results.data.pages;
  const first = pages[0]!;
  const shown = (shownPage === null ? pages.flatMap((p) => p.documents) : (pages[shownPage]?.documents ?? [])).filter(
    (p) => !marks.deleted.has(p.id),
  );
  if (first.totalCount === 0 && first.documents.length === 0 && !first.totalCountIsEstimate) {
    return <NoResults label={tab.label} suggestions={first.suggestions} onApply={onSuggestion} />;
  }
  const total = resultTotal(first.totalCount, first.totalCountIsEstimate ?? false, tab.label);
  const nextPage = async () => {
    const index = (shownPage ?? pages.length - 1) + 1;
    if (index >= pages.length) {
      const fetched = await results.fetchNextPage();
      if (fetched.isError) return;
    }
    setShownPage(index);
    window.scrollTo({ top: 0 });
  };
  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary" aria-live="polite">
        {total}
        {shownPage !== null && ` · page ${shownPage + 1}`}
      </Typography>
      <ResultList
        posts={shown}
        providers={providers}
        terms={terms}
        flagged={flags.ids}
        blurMedia={blurMedia}
        onFlag={flags.toggle}
        marking={{ read: marks.read, onRead: marks.setRead, onDelete: marks.remove }}
      />
      {/* A search that found only a few: other forms of its words may find more. */}
      <SearchSuggestions suggestions={first.suggestions} onApply={onSuggestion} />
      {results.isFetchNextPageError && (
        <LoadError onRetry={() => void results.fetchNextPage()}>
          {searchError(results.error, 'Error loading more results')}
        </LoadError>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'center', py: 1 }}>
        {shownPage !== null && shownPage > 0 && (
          <Button onClick={() => setShownPage(shownPage - 1)}>Previous page</Button>
        )}
        {shownPage === null && results.hasNextPage && (
          <LoadMoreButton loading={results.isFetchingNextPage} onClick={() => void results.fetchNextPage()} />
        )}
        {(results.hasNextPage || (shownPage !== null && shownPage < pages.length - 1)) && (
          <Button onClick={() => void nextPage()} disabled={results.isFetchingNextPage}>
            Next page
          </Button>
        )}
        {shownPage !== null && <Button onClick={() => setShownPage(null)}>Show all loaded</Button>}
      </Stack>
    </Stack>
  );
}

/** The Flagged tab: every flagged post, and clearing them all. */
function FlaggedPanel({
  providers,
  terms,
  blurMedia,
}: {
  providers: Map<string, Provider>;
  terms: ReturnType<typeof termsOf>;
  blurMedia: boolean;
}) {
  const flagged = useFlaggedQuery();
  const flags = usePostFlags();
  const marks = usePostMarks(flagged.data?.documents ?? []);
  const { clear } = useFlagActions();
  const confirm = useConfirm();
  if (flagged.isPending) return <ResultsSkeleton />;
  if (flagged.isError) {
    return <LoadError onRetry={() => void flagged.refetch()}>Your flagged posts could not be loaded.</LoadError>;
  }
  const posts = flagged.data.documents.filter((p) => !marks.deleted.has(p.id));
  if (posts.length === 0) {
    return (
      <Box sx={{ mt: 2 }}>
        <EmptyState icon={FlagOutlined} title="No flagged posts">
          Flag results in the other tabs to collect them here for export.
        </EmptyState>
      </Box>
    );
  }
  return (
    <Stack spacing={1.5} sx={{ mt: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary">
          <Chip size="small" label={formatCount(posts.length)} sx={{ mr: 1 }} />
          flagged {posts.length === 1 ? 'post' : 'posts'}, most recently flagged first
        </Typography>
        <Button
          color="error"
          onClick={() =>
            confirm({
              title: 'Clear all flags?',
              text: `This removes the flag from ${posts.length === 1 ? 'the flagged post' : `all ${posts.length} flagged posts`}.`,
              icon: 'warning',
              acceptLabel: 'Clear all flags',
              onAccept: () => clear.mutate(),
            })
          }
        >
          Clear all flags
        </Button>
      </Stack>
      <ResultList
        posts={posts}
        providers={providers}
        terms={terms}
        flagged={flags.ids}
        blurMedia={blurMedia}
        onFlag={flags.toggle}
        marking={{ read: marks.read, onRead: marks.setRead, onDelete: marks.remove }}
      />
    </Stack>
  );
}

/** The word cloud and daily graph of the tab's search; a word clicked is added to the query. */
function BeaconAnalytics({
  tab,
  request,
  onWord,
}: {
  tab: TabDefinition;
  request: BeaconRequest;
  onWord: (word: string) => void;
}) {
  const analytics = useBeaconAnalytics(tab.category, request, true);
  return (
    <AnalyticsPanel
      analytics={analytics.data}
      error={analytics.error}
      onRetry={() => void analytics.refetch()}
      onWord={onWord}
    />
  );
}

function ResultsSkeleton() {
  return (
    <Stack spacing={1.25} role="status" aria-label="Searching">
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} variant="rounded" height={96} />
      ))}
    </Stack>
  );
}
