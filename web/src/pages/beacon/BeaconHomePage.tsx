import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router';
import { AdvancedSearchDialog } from '../../components/beacon/AdvancedSearchDialog';
import { BeaconSearchBar } from '../../components/beacon/BeaconSearchBar';
import { BreachSearchDialog } from '../../components/beacon/BreachSearchDialog';
import { TrendingNow } from '../../components/beacon/TrendingNow';
import { useHistoryQuery, useRecordSearch } from '../../hooks/useBeaconQueries';
import {
  type BeaconSearch,
  historyRequest,
  newSearch,
  RESULTS_PATH,
  resultsUrl,
  searchFromHistory,
} from '../../lib/beaconSearch';

/**
 * Beacon's home: one search box over every stored post, the last searches to run again, and the
 * advanced and data-breach searches. A link with a search in it (the builder's Test in Beacon,
 * other tools) goes straight to its results.
 */
export function BeaconHomePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const record = useRecordSearch();
  const history = useHistoryQuery();
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [breachOpen, setBreachOpen] = useState(false);

  if (params.has('text') || params.has('q')) return <Navigate to={`${RESULTS_PATH}?${params}`} replace />;

  const run = (search: BeaconSearch) => {
    record.mutate({ category: search.tab === 'breaches' ? 'documents' : 'all', request: historyRequest(search) });
    void navigate(resultsUrl(search));
  };
  const recent = (history.data ?? []).slice(0, 6);

  return (
    <Box sx={{ maxWidth: 880, mx: 'auto', px: { xs: 2, md: 4 }, pt: { xs: 4, md: 10 }, pb: 4 }}>
      <Typography variant="h1" sx={{ mb: 1 }}>
        Beacon
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Search every post Sightline holds: social media, forums, the deep and dark web, pastes and breaches.
      </Typography>
      <BeaconSearchBar
        initialQuery=""
        autoFocus
        onSearch={(query) => run(newSearch(query))}
        onClear={() => undefined}
        onBreachSearch={() => setBreachOpen(true)}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
        <Button startIcon={<TuneOutlined />} onClick={() => setAdvancedOpen(true)}>
          Advanced search
        </Button>
        <Button onClick={() => setBreachOpen(true)}>Data breach search</Button>
        <Button component={RouterLink} to="/history" startIcon={<HistoryOutlined />}>
          Search history
        </Button>
      </Stack>
      {recent.length > 0 && (
        <Box component="section" aria-labelledby="beacon-recent" sx={{ mt: 4 }}>
          <Typography id="beacon-recent" variant="overline" color="text.secondary" component="h2">
            Recent searches
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
            {recent.map((entry) => {
              const search = searchFromHistory(entry.request);
              const label = search.query || search.authors.join(', ') || search.boards.join(', ');
              return (
                <Chip
                  key={entry.id}
                  label={label}
                  component={RouterLink}
                  to={resultsUrl(search)}
                  clickable
                  variant="outlined"
                />
              );
            })}
          </Stack>
        </Box>
      )}
      <TrendingNow onSearch={(q) => run(newSearch(q))} />
      <AdvancedSearchDialog
        open={advancedOpen}
        current={newSearch('')}
        onClose={() => setAdvancedOpen(false)}
        onSearch={(changed) => {
          setAdvancedOpen(false);
          run({ ...newSearch(''), ...changed });
        }}
      />
      <BreachSearchDialog
        open={breachOpen}
        onClose={() => setBreachOpen(false)}
        onSearch={(query) => {
          setBreachOpen(false);
          run({ ...newSearch(query), tab: 'breaches' });
        }}
      />
    </Box>
  );
}
