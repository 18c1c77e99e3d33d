import AddAlertOutlined from '@mui/icons-material/AddAlertOutlined';
import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined';
import CropSquareOutlined from '@mui/icons-material/CropSquareOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import PentagonOutlined from '@mui/icons-material/PentagonOutlined';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import TravelExploreOutlined from '@mui/icons-material/TravelExploreOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type FormEvent, useMemo, useState } from 'react';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import type { LocateType } from '../../api/locate';
import { AnalyticsPanel } from '../../components/analytics/AnalyticsPanel';
import { LoadMoreButton } from '../../components/beacon/LoadMoreButton';
import { ResultList } from '../../components/beacon/ResultList';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { LocateFilters } from '../../components/locate/LocateFilters';
import { DrawnAreaName } from '../../components/locate/DrawnAreaName';
import { type DrawMode, LocateMap } from '../../components/locate/LocateMap';
import { LocationField } from '../../components/searchBuilder/LocationField';
import { usePostFlags } from '../../hooks/useBeaconQueries';
import { useDrawnAreaName } from '../../hooks/useGeocodeQueries';
import { drawnAreaLabel } from '../../lib/drawnArea';
import { useLocateAnalytics, useLocateSearch } from '../../hooks/useLocateQueries';
import { useFilterListsQuery, useProvidersQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSearchBuilder } from '../../hooks/useSearchBuilder';
import { resultTotal } from '../../lib/countFormat';
import { SearchErrorPage } from '../../components/SearchErrorPage';
import { searchError } from '../../lib/searchError';
import { termsOf } from '../../lib/highlight';
import {
  filterListKind,
  LOCATE_SORTS,
  LOCATE_TYPES,
  type LocateSearch,
  locateFromLink,
  locateFromParams,
  locateParams,
  locateRequest,
  missingField,
  withLocateDates,
  withMedia,
  withPriority,
  withSort,
} from '../../lib/locateSearch';

/** The builder's Test in Locate link, in the spec's parameters: opened as Locate's own search. */
export function LocateLinkPage() {
  const [params] = useSearchParams();
  return <Navigate to={`/locate?${locateParams(locateFromLink(params)).toString()}`} replace />;
}

/**
 * Locate (search-side.md sections 3 and 5): a search by keyword, author, place or all three,
 * with its results in a list and on the map, kept in step.
 */
export function LocatePage() {
  const [params, setParams] = useSearchParams();
  const paramsKey = params.toString();
  const committed = useMemo(() => locateFromParams(new URLSearchParams(paramsKey)), [paramsKey]);
  const runnable = missingField(committed) === null;
  const query = useMemo(() => (runnable ? locateRequest(committed) : null), [committed, runnable]);
  return (
    // A new search in the URL (history, a link) starts the form again from it.
    <LocateScreen key={paramsKey} committed={committed} query={query} onSearch={(s) => setParams(locateParams(s))} />
  );
}

// The search's text fields, each shown for the search types that use it.
const TEXT_FIELDS = [
  { name: 'keywords', label: 'Keywords', placeholder: 'Words and operators, such as flood AND bridge' },
  { name: 'author', label: 'Author', placeholder: 'Names or handles, separated by commas' },
] as const;

// RemovableChips shows a narrowing of the search (boards, filter lists) as chips under a
// caption, each of which removes itself; nothing when there is none.
function RemovableChips<T extends string | number>({
  caption,
  items,
  label,
  onDelete,
}: {
  caption: string;
  items: readonly T[];
  label: (item: T) => string;
  onDelete: (item: T) => void;
}) {
  if (items.length === 0) return null;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="body2" color="text.secondary">
        {caption}
      </Typography>
      {items.map((item) => (
        <Chip key={item} size="small" label={label(item)} onDelete={() => onDelete(item)} />
      ))}
    </Stack>
  );
}

function LocateScreen({
  committed,
  query,
  onSearch,
}: {
  committed: LocateSearch;
  query: ReturnType<typeof locateRequest> | null;
  onSearch: (s: LocateSearch) => void;
}) {
  const profile = useProfile();
  const builder = useSearchBuilder();
  const providersQuery = useProvidersQuery();
  const providers = useMemo(
    () => new Map((providersQuery.data ?? []).map((p) => [p.name, p] as const)),
    [providersQuery.data],
  );
  const [draft, setDraft] = useState<LocateSearch>(committed);
  const [problem, setProblem] = useState<string | null>(null);
  const [drawMode, setDrawMode] = useState<DrawMode>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [showAnalytics, setShowAnalytics] = useState(false);
  const results = useLocateSearch(query);
  const analytics = useLocateAnalytics(query, showAnalytics);
  const flags = usePostFlags();
  const terms = useMemo(() => termsOf(committed.keywords), [committed.keywords]);
  const posts = useMemo(() => (results.data?.pages ?? []).flatMap((p) => p.documents), [results.data]);
  const filterLists = useFilterListsQuery();
  const listNames = useMemo(
    () => new Map((filterLists.data ?? []).map((l) => [l.id, `${l.name} (${filterListKind(l)})`] as const)),
    [filterLists.data],
  );
  const areaName = useDrawnAreaName(committed.bounds && !committed.address ? committed.bounds : '');

  // run makes next the draft and searches for it, or says what it lacks.
  const run = (next: LocateSearch) => {
    setDraft(next);
    const missing = missingField(next);
    setProblem(missing);
    if (!missing) onSearch(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run(draft);
  };
  const setType = (type: LocateType) => setDraft((d) => ({ ...d, type }));
  const drawn = (wkt: string) => {
    setDrawMode(null);
    // A drawn area joins the words or author already given, else it is the search.
    const keeps = (draft.type === 'keyword' && draft.keywords) || (draft.type === 'author' && draft.author);
    const next: LocateSearch = {
      ...draft,
      bounds: wkt,
      address: '',
      type: keeps ? 'compound' : draft.type === 'compound' ? 'compound' : 'location',
    };
    run(next);
  };
  const addWord = (word: string) => {
    const keywords = draft.keywords.trim() ? `${draft.keywords.trim()} ${word}` : word;
    const next: LocateSearch = { ...draft, keywords, type: draft.type === 'keyword' ? 'keyword' : 'compound' };
    run(next);
  };
  const select = (postId: string) => {
    setHighlighted(postId);
    document.getElementById(`result-${postId}`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  };
  const save = () => {
    const dated = query && withLocateDates(query, Date.now());
    builder.create({
      prefill: {
        keywords: dated?.keywords ?? '',
        author: dated?.author ?? '',
        providers: committed.providers,
        boards: committed.boards ?? [],
        // Only a list's owner may attach it to a saved search (monitor-area.md section 6).
        searchFilterIds: (committed.filterLists ?? []).filter((id) =>
          filterLists.data?.some((l) => l.id === id && l.userPermissionLevel === 'owner'),
        ),
        location: dated?.bounds ? committed.address || drawnAreaLabel(areaName.data?.address) : '',
        locationBounds: dated?.bounds ?? '',
        startDate: dated?.from ? new Date(dated.from) : null,
        endDate: dated?.to ? new Date(dated.to) : null,
      },
    });
  };

  const uses = {
    keywords: draft.type === 'keyword' || draft.type === 'compound',
    author: draft.type === 'author' || draft.type === 'compound',
    place: draft.type === 'location' || draft.type === 'compound',
  };
  const first = results.data?.pages[0];

  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column', md: 'row' },
        height: { md: '100%' },
        gap: 2,
        p: { xs: 2, md: 2 },
      }}
    >
      <Box sx={{ width: { md: 560 }, flexShrink: 0, overflowY: { md: 'auto' }, pr: { md: 1 } }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}>
          <Typography variant="h2" component="h1">
            Locate
          </Typography>
          <Stack direction="row" spacing={1}>
            <Button component={RouterLink} to="/locate/search-filters">
              Search filters
            </Button>
            <Button component={RouterLink} to="/locate/saved" startIcon={<BookmarksOutlined />}>
              Saved searches
            </Button>
            <Button variant="outlined" startIcon={<AddAlertOutlined />} onClick={save} disabled={!query}>
              Save search
            </Button>
          </Stack>
        </Stack>
        <Box component="form" role="search" aria-label="Locate search" onSubmit={submit} noValidate>
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={draft.type}
            onChange={(_event, type: LocateType | null) => type && setType(type)}
            aria-label="Search type"
            sx={{ mb: 1.5 }}
          >
            {LOCATE_TYPES.map((t) => (
              <ToggleButton key={t.id} value={t.id}>
                {t.label}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Stack spacing={1.5}>
            {TEXT_FIELDS.filter((f) => uses[f.name]).map((f) => (
              <TextField
                key={f.name}
                label={f.label}
                placeholder={f.placeholder}
                value={draft[f.name]}
                onChange={(event) => setDraft((d) => ({ ...d, [f.name]: event.target.value }))}
              />
            ))}
            {uses.place && (
              <LocationField
                label="Place"
                placeholder={draft.bounds && !draft.address ? 'An area drawn on the map' : 'A city, region or country'}
                value={draft.address}
                bounds={draft.bounds}
                onChange={(address) => setDraft((d) => ({ ...d, address, bounds: address ? d.bounds : '' }))}
                onResolved={(place, failure) => {
                  setProblem(failure ?? null);
                  if (place) setDraft((d) => ({ ...d, address: place.address, bounds: place.bounds }));
                }}
              />
            )}
            {uses.place && draft.bounds && !draft.address && <DrawnAreaName wkt={draft.bounds} />}
            <RemovableChips
              caption="Only from"
              items={draft.boards ?? []}
              label={(board) => board}
              onDelete={(board) => run({ ...draft, boards: (draft.boards ?? []).filter((b) => b !== board) })}
            />
            <RemovableChips
              caption="Filtered by"
              items={draft.filterLists ?? []}
              label={(id) => listNames.get(id) ?? `Filter list ${id}`}
              onDelete={(id) => {
                const rest = (draft.filterLists ?? []).filter((l) => l !== id);
                const next: LocateSearch = { ...draft, filterLists: rest };
                if (rest.length === 0) delete next.filterLists;
                run(next);
              }}
            />
            {problem && <Alert severity="warning">{problem}</Alert>}
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Button type="submit" variant="contained">
                Search
              </Button>
              <LocateFilters
                value={{
                  range: committed.range,
                  media: committed.media,
                  priority: committed.priority,
                  providers: committed.providers,
                  ...(committed.sort ? { sort: committed.sort } : {}),
                  ...(committed.filterLists ? { filterLists: committed.filterLists } : {}),
                }}
                providers={providersQuery.data ?? []}
                filterLists={{ lists: filterLists.data ?? [], failed: filterLists.isError }}
                retentionDays={profile.retentionDays}
                onApply={(filters) => {
                  const next = withSort(
                    withPriority(
                      withMedia({ ...draft, range: filters.range, providers: filters.providers }, filters.media),
                      filters.priority,
                    ),
                    filters.sort ?? 'recent',
                  );
                  if (filters.filterLists) next.filterLists = filters.filterLists;
                  else delete next.filterLists;
                  setDraft(next);
                  if (missingField(next) === null) onSearch(next);
                }}
              />
              <Box sx={{ flex: 1 }} />
              <ToggleButton
                value="analytics"
                size="small"
                selected={showAnalytics}
                onChange={() => setShowAnalytics((on) => !on)}
                disabled={!query}
              >
                <InsightsOutlined fontSize="small" sx={{ mr: 0.5 }} />
                Analytics
              </ToggleButton>
            </Stack>
          </Stack>
        </Box>

        <Box sx={{ mt: 2 }}>
          {!query ? (
            <EmptyState icon={TravelExploreOutlined} title="Search by place, words or author">
              Type a place and choose it from the suggestions, or draw a rectangle or a polygon on the map; add keywords
              or an author with Compound.
            </EmptyState>
          ) : results.isPending ? (
            <Stack spacing={1.25} role="status" aria-label="Searching">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} variant="rounded" height={96} />
              ))}
            </Stack>
          ) : results.isError && !results.data ? (
            <SearchErrorPage error={results.error} fallback="Search failed" onRetry={() => void results.refetch()} />
          ) : first && first.totalCount === 0 && posts.length === 0 && !first.totalCountIsEstimate ? (
            <EmptyState icon={SearchOffOutlined} title="No posts match">
              Try a larger area, fewer words, a wider date range or more data sources.
            </EmptyState>
          ) : (
            <Stack spacing={1.5}>
              {showAnalytics && (
                <AnalyticsPanel
                  analytics={analytics.data}
                  error={analytics.error}
                  onRetry={() => void analytics.refetch()}
                  onWord={addWord}
                />
              )}
              <Typography variant="body2" color="text.secondary" aria-live="polite">
                {resultTotal(first?.totalCount ?? 0, first?.totalCountIsEstimate ?? false)}
                {posts.length > 0 && `, ${LOCATE_SORTS.find((o) => o.id === (committed.sort ?? 'recent'))?.order}`}
              </Typography>
              <ResultList
                posts={posts}
                providers={providers}
                terms={terms}
                flagged={flags.ids}
                blurMedia={profile.media_sensitivity === 'blur'}
                onFlag={flags.toggle}
                highlighted={highlighted}
                onHover={setHighlighted}
              />
              {results.isFetchNextPageError && (
                <LoadError onRetry={() => void results.fetchNextPage()}>
                  {searchError(results.error, 'Error loading more results')}
                </LoadError>
              )}
              {results.hasNextPage && (
                <Box sx={{ textAlign: 'center', py: 1 }}>
                  <LoadMoreButton loading={results.isFetchingNextPage} onClick={() => void results.fetchNextPage()} />
                </Box>
              )}
            </Stack>
          )}
        </Box>
      </Box>

      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1, minHeight: { xs: 420 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={drawMode}
            onChange={(_event, next: DrawMode) => setDrawMode(next)}
            aria-label="Draw an area"
          >
            <ToggleButton value="rectangle">
              <CropSquareOutlined fontSize="small" sx={{ mr: 0.5 }} />
              Draw rectangle
            </ToggleButton>
            <ToggleButton value="polygon">
              <PentagonOutlined fontSize="small" sx={{ mr: 0.5 }} />
              Draw polygon
            </ToggleButton>
          </ToggleButtonGroup>
          <Typography variant="body2" color="text.secondary" aria-live="polite">
            {drawMode === 'rectangle'
              ? 'Drag across the map to draw the area.'
              : drawMode === 'polygon'
                ? 'Click each corner; double-click the last one.'
                : ''}
          </Typography>
        </Stack>
        <Box sx={{ flex: 1, minHeight: 0 }}>
          <LocateMap
            area={draft.type === 'location' || draft.type === 'compound' ? draft.bounds : ''}
            posts={posts}
            providers={providers}
            highlighted={highlighted}
            onSelect={select}
            drawMode={drawMode}
            onDrawn={drawn}
          />
        </Box>
      </Box>
    </Box>
  );
}
