import AddOutlined from '@mui/icons-material/AddOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Fragment, type ReactNode, useCallback, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import type { Dashboard, WidgetId } from '../../api/dashboard';
import { CountBarsChart, HeatmapChart, TimelineChart } from '../../components/dashboard/charts';
import { GetStartedCard } from '../../components/dashboard/GetStartedCard';
import { PlacesMap } from '../../components/dashboard/PlacesMap';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { useDashboardLayoutQuery, useDashboardQuery } from '../../hooks/useDashboardQuery';
import { useMatchCountsBySearchQuery, useMatchCountsQuery } from '../../hooks/useMatchesQuery';
import { useProvidersQuery, useSearchesQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import { useSearchBuilder } from '../../hooks/useSearchBuilder';
import { SERIES_COLOURS } from '../../lib/chartDays';
import { WIDGET_TITLES } from '../../lib/dashboardWidgets';
import { SpikeList } from '../../components/spikes/SpikeList';
import { TrendList } from '../../components/spikes/TrendList';
import { useMonitorTrendsQuery } from '../../hooks/useSpikeQueries';
import { formatCount } from '../../lib/countFormat';
import { type GuideState, readGuide, writeGuide } from '../../lib/getStarted';

/** An inbox address (relative to the dashboard) with the given filters. */
function inboxLink(fields: Record<string, string>): string {
  const params = new URLSearchParams(fields);
  const query = params.toString();
  return `../matches/grid${query ? `?${query}` : ''}`;
}

type Query = ReturnType<typeof useDashboardQuery>;

/** Emerging terms among the user's matches, from their own query. */
function TrendingWidget() {
  const query = useMonitorTrendsQuery();
  return (
    <Paper component="section" aria-label={WIDGET_TITLES.trending} variant="outlined" sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {WIDGET_TITLES.trending}
      </Typography>
      {query.isPending ? (
        <Skeleton variant="rounded" height={84} aria-label={`Loading ${WIDGET_TITLES.trending}`} />
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} retryLabel="Try Again">
          Chart load error
        </LoadError>
      ) : (
        <TrendList
          trends={query.data}
          empty="Nothing is rising: words, hashtags, handles and places show here when their share of your matches climbs well above the week before."
        />
      )}
    </Paper>
  );
}

/** A widget's frame: skeleton while loading, "Chart load error" with Try Again, else its body. */
function Widget({ title, query, children }: { title: string; query: Query; children: (data: Dashboard) => ReactNode }) {
  return (
    <Paper component="section" aria-label={title} variant="outlined" sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {query.isPending ? (
        <Stack spacing={1} aria-label={`Loading ${title}`} role="progressbar">
          <Skeleton variant="rounded" height={28} />
          <Skeleton variant="rounded" height={28} />
          <Skeleton variant="rounded" height={28} />
        </Stack>
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} retryLabel="Try Again">
          Chart load error
        </LoadError>
      ) : (
        children(query.data)
      )}
    </Paper>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <Typography variant="body2" color="text.secondary">
      {children}
    </Typography>
  );
}

function Stat({ value, label, to }: { value: number; label: string; to: string }) {
  return (
    <Link
      component={RouterLink}
      to={to}
      underline="hover"
      aria-label={`${formatCount(value)} ${label}: open in the inbox`}
    >
      <Typography variant="h3" component="p" sx={{ fontWeight: 600 }}>
        {formatCount(value)}
      </Typography>
    </Link>
  );
}

/** Horizontal bars for ranked counts; each bar a link when the inbox can filter by it. */
function Bars({ label, rows }: { label: string; rows: { key: string; label: string; count: number; to?: string }[] }) {
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <List dense disablePadding aria-label={label}>
      {rows.map((row) => {
        const body = (
          <Box sx={{ width: '100%' }}>
            <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
              <Typography variant="body2" noWrap>
                {row.label}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {formatCount(row.count)}
              </Typography>
            </Stack>
            <Box sx={{ height: 6, borderRadius: 3, bgcolor: 'action.hover' }}>
              <Box sx={{ height: 6, borderRadius: 3, bgcolor: 'primary.main', width: `${(row.count / max) * 100}%` }} />
            </Box>
          </Box>
        );
        // A <ul> may hold only <li>: the link sits inside its item, never in the list itself.
        return (
          <ListItem key={row.key} disablePadding>
            {row.to ? (
              <ListItemButton component={RouterLink} to={row.to} sx={{ px: 1, borderRadius: 1 }}>
                {body}
              </ListItemButton>
            ) : (
              <Box sx={{ width: '100%', px: 1, py: 0.5 }}>{body}</Box>
            )}
          </ListItem>
        );
      })}
    </List>
  );
}

/** The timeline's searches with their colours: the legend, and the keyboard's way to each inbox. */
function SearchLegend({
  ids,
  name,
  colour,
}: {
  ids: number[];
  name: (id: number) => string;
  colour: (id: number) => string;
}) {
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
      {ids.map((id) => (
        <Chip
          key={id}
          size="small"
          variant="outlined"
          label={name(id)}
          component={RouterLink}
          to={inboxLink({ monitorSearchIds: String(id) })}
          clickable
          icon={<Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: colour(id) }} />}
        />
      ))}
    </Stack>
  );
}

/**
 * The results and unread results of the chosen searches (all when none) from the inbox's counts,
 * the ones the sidebar and the inbox header show and the live channel keeps current: the
 * dashboard's figures never disagree with them (issue 28: 164 results beside the sidebar's 171).
 * Undefined until they load.
 */
function useResultTally(chosen: number[]): { totalCount: number; unreadCount: number } | undefined {
  const all = useMatchCountsQuery();
  const some = useMatchCountsBySearchQuery(chosen);
  if (chosen.length === 0) return all.data;
  if (!some.data) return undefined;
  return some.data.reduce(
    (sum, c) => ({ totalCount: sum.totalCount + c.totalCount, unreadCount: sum.unreadCount + c.unreadCount }),
    {
      totalCount: 0,
      unreadCount: 0,
    },
  );
}

export function DashboardPage() {
  const [params] = useSearchParams();
  const chosen = (params.get('monitorSearchIds') ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0);
  const query = useDashboardQuery(chosen);
  const tally = useResultTally(chosen);
  const layout = useDashboardLayoutQuery();
  const searches = useSearchesQuery();
  const providers = useProvidersQuery();
  const builder = useSearchBuilder();
  const navigate = useNavigate();
  const names = new Map((searches.data ?? []).map((s) => [s.id, s.value]));
  const searchName = (id: number) => names.get(id) ?? `Search ${id}`;
  const providerName = (name: string) => providers.data?.find((p) => p.name === name)?.displayName ?? name;
  const scope: Record<string, string> = chosen.length > 0 ? { monitorSearchIds: chosen.join(',') } : {};
  const scopeKey = chosen.join(',');
  const placeLink = useCallback(
    (l: { name: string }) =>
      inboxLink({ ...(scopeKey ? { monitorSearchIds: scopeKey } : {}), searchText: l.name, searchIn: 'titleText' }),
    [scopeKey],
  );

  const profile = useProfile();
  const [guide, setGuide] = useState(() => readGuide(profile.id));
  const changeGuide = (state: GuideState) => {
    writeGuide(profile.id, state);
    setGuide(state);
  };
  // Shown to a user without saved searches; once begun, it stays for its last steps until put away.
  const showGuide =
    searches.data !== undefined && guide !== 'dismissed' && (searches.data.length === 0 || guide === 'started');
  const newest = searches.data?.reduce<(typeof searches.data)[number] | undefined>(
    (a, b) => (a && a.id > b.id ? a : b),
    undefined,
  );
  const guideCard = showGuide && (
    <GetStartedCard
      search={newest}
      inboxLink={inboxLink(newest ? { monitorSearchIds: String(newest.id) } : {})}
      matches={query.data?.resultCount}
      onStart={() => changeGuide('started')}
      onDismiss={() => changeGuide('dismissed')}
    />
  );

  const header = <PageHeader title="Dashboard" subtitle="An overview of what your saved searches find." />;
  if (searches.data && searches.data.length === 0) {
    return (
      <>
        {header}
        {guideCard || (
          <EmptyState
            icon={InsightsOutlined}
            title="No saved searches yet"
            actions={
              <Button variant="contained" startIcon={<AddOutlined />} onClick={() => builder.create()}>
                Create a saved search
              </Button>
            }
          >
            Create a saved search: its results fill these widgets as they arrive.
          </EmptyState>
        )}
      </>
    );
  }
  const noResults = 'No results yet. Results appear here as your saved searches match new posts.';
  const widgets: Record<WidgetId, ReactNode> = {
    result_count: (
      <Widget title={WIDGET_TITLES.result_count} query={query}>
        {(d) => <Stat value={tally?.totalCount ?? d.resultCount} label="results" to={inboxLink(scope)} />}
      </Widget>
    ),
    unread_count: (
      <Widget title={WIDGET_TITLES.unread_count} query={query}>
        {(d) => (
          <Stat
            value={tally?.unreadCount ?? d.unreadCount}
            label="unread results"
            to={inboxLink({ ...scope, filters: 'unread' })}
          />
        )}
      </Widget>
    ),
    new_count: (
      <Widget title={WIDGET_TITLES.new_count} query={query}>
        {(d) => <Stat value={d.newCount} label="new results" to={inboxLink({ ...scope, sort: 'discovered_desc' })} />}
      </Widget>
    ),
    top_authors: (
      <Widget title={WIDGET_TITLES.top_authors} query={query}>
        {(d) =>
          d.topAuthors.length === 0 ? (
            <Empty>{noResults}</Empty>
          ) : (
            <Bars
              label="Top authors of the 200 most recent results"
              rows={d.topAuthors.map((a) => ({
                key: `${a.provider}:${a.screenName}:${a.name}`,
                label: `${a.name || a.screenName}${a.screenName && a.name ? ` (@${a.screenName})` : ''} · ${providerName(a.provider)}`,
                count: a.count,
                to: inboxLink({
                  ...scope,
                  searchText: a.screenName || a.name,
                  searchIn: a.screenName ? 'authorScreenName' : 'authorName',
                }),
              }))}
            />
          )
        }
      </Widget>
    ),
    top_providers: (
      <Widget title={WIDGET_TITLES.top_providers} query={query}>
        {(d) =>
          d.topProviders.length === 0 ? (
            <Empty>{noResults}</Empty>
          ) : (
            <Stack spacing={1}>
              <CountBarsChart
                label="Results by data source"
                rows={d.topProviders.map((p) => ({ label: providerName(p.provider), count: p.count }))}
                onOpen={(row) => {
                  const p = d.topProviders[row];
                  if (p) void navigate(inboxLink({ ...scope, providers: p.provider }));
                }}
              />
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                {d.topProviders.map((p) => (
                  <Chip
                    key={p.provider}
                    size="small"
                    variant="outlined"
                    clickable
                    component={RouterLink}
                    to={inboxLink({ ...scope, providers: p.provider })}
                    label={providerName(p.provider)}
                  />
                ))}
              </Stack>
            </Stack>
          )
        }
      </Widget>
    ),
    top_mentioned_locations: (
      <Widget title={WIDGET_TITLES.top_mentioned_locations} query={query}>
        {(d) =>
          d.topMentionedLocations.length === 0 ? (
            <Empty>No places named in the last 30 days of results. Places appear when posts mention them.</Empty>
          ) : (
            <>
              <PlacesMap places={d.topMentionedLocations} linkOf={placeLink} />
              <Bars
                label="Places most mentioned in the last 30 days"
                rows={d.topMentionedLocations.map((l) => ({
                  key: `${l.name}:${l.countryCode}:${l.lat}:${l.lon}`,
                  label: `${l.name}${l.countryCode ? `, ${l.countryCode}` : ''}`,
                  count: l.count,
                  to: placeLink(l),
                }))}
              />
            </>
          )
        }
      </Widget>
    ),
    heatmap: (
      <Widget title={WIDGET_TITLES.heatmap} query={query}>
        {(d) => (d.heatmap.length === 0 ? <Empty>{noResults}</Empty> : <HeatmapChart cells={d.heatmap} />)}
      </Widget>
    ),
    timeline: (
      <Widget title={WIDGET_TITLES.timeline} query={query}>
        {(d) => {
          if (d.timeline.length === 0) return <Empty>{noResults}</Empty>;
          const ids = [...new Set(d.timeline.map((p) => p.monitorSearchId))].sort((a, b) => a - b);
          const colour = (id: number) => SERIES_COLOURS[ids.indexOf(id) % SERIES_COLOURS.length] ?? '#4c7bd9';
          return (
            <Stack spacing={1}>
              <TimelineChart
                points={d.timeline}
                name={searchName}
                colour={colour}
                onOpen={(id) => void navigate(inboxLink({ monitorSearchIds: String(id) }))}
              />
              <SearchLegend ids={ids} name={searchName} colour={colour} />
            </Stack>
          );
        }}
      </Widget>
    ),
    spikes: (
      <Widget title={WIDGET_TITLES.spikes} query={query}>
        {(d) =>
          d.spikes.length === 0 ? (
            <Empty>No spikes this week: an hour far above its usual count for that hour of the week shows here.</Empty>
          ) : (
            <SpikeList
              spikes={d.spikes.slice(0, 6).map((s) => ({ ...s, searchName: searchName(s.monitorSearchId) }))}
              onOpen={(s) => s.monitorSearchId !== undefined && void navigate(`../${s.monitorSearchId}`)}
            />
          )
        }
      </Widget>
    ),
    trending: <TrendingWidget />,
    threat: (
      <Widget title={WIDGET_TITLES.threat} query={query}>
        {(d) =>
          d.resultCount === 0 ? (
            <Empty>{noResults}</Empty>
          ) : (
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
              <Box sx={{ flex: 1 }}>
                <CountBarsChart
                  label="Results by threat score"
                  rows={d.threat.buckets.map((b) => ({ label: `${b.from}–${b.to}`, count: b.count }))}
                />
              </Box>
              <Box sx={{ flex: 1 }}>
                <Typography variant="body2" sx={{ fontWeight: 600, mb: 1 }}>
                  Highest-scoring posts
                </Typography>
                {d.threat.top.length === 0 ? (
                  <Empty>No result has a threat score above 0.</Empty>
                ) : (
                  <List dense disablePadding aria-label="Highest-scoring posts">
                    {d.threat.top.map((t) => (
                      <ListItem key={t.matchId} disableGutters>
                        <ListItemText
                          primary={`${t.score} · ${t.post.author_name || t.post.author_screen_name || providerName(t.post.provider)}`}
                          secondary={`${(t.post.title_text || t.post.content_text || '').slice(0, 140)}${
                            t.reasons.length > 0 ? ` — ${t.reasons.join(', ')}` : ''
                          }`}
                        />
                      </ListItem>
                    ))}
                  </List>
                )}
              </Box>
            </Stack>
          )
        }
      </Widget>
    ),
  };
  return (
    <>
      {header}
      {guideCard}
      {layout.isPending ? (
        <Stack spacing={2} role="status" aria-label="Loading the dashboard">
          <Skeleton variant="rounded" height={120} />
          <Skeleton variant="rounded" height={240} />
        </Stack>
      ) : layout.isError ? (
        <LoadError onRetry={() => void layout.refetch()} retryLabel="Try Again">
          {layout.error.message}
        </LoadError>
      ) : (
        <Stack spacing={2}>
          {layout.data.rows.map((row) => (
            <Box
              key={row.widgets.join()}
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: { xs: '1fr', md: `repeat(${row.widgets.length}, minmax(0, 1fr))` },
              }}
            >
              {row.widgets.map((id) => (
                <Fragment key={id}>{widgets[id]}</Fragment>
              ))}
            </Box>
          ))}
        </Stack>
      )}
    </>
  );
}
