import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import ReplayOutlined from '@mui/icons-material/ReplayOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { LoadError } from '../components/LoadError';
import { PageHeader } from '../components/PageHeader';
import { useHistoryQuery } from '../hooks/useBeaconQueries';
import { resultsUrl, searchFromHistory, tabOf } from '../lib/beaconSearch';
import { formatDateTime } from '../lib/dateRange';

/** The user's past searches, newest first, each run again with one click. */
export function HistoryPage() {
  const history = useHistoryQuery();
  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', px: { xs: 2, md: 4 }, py: 3 }}>
      <PageHeader title="Search history" subtitle="Your last 100 searches, newest first. Searches are kept 30 days." />
      {history.isPending && (
        <Stack spacing={1} role="status" aria-label="Loading your searches">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      )}
      {history.isError && (
        <LoadError onRetry={() => void history.refetch()}>Your search history could not be loaded.</LoadError>
      )}
      {history.data?.length === 0 && (
        <EmptyState
          icon={HistoryOutlined}
          title="No searches yet"
          actions={
            <Button variant="contained" component={RouterLink} to="/beacon">
              Search in Beacon
            </Button>
          }
        >
          Searches you run in Beacon are listed here, to run again.
        </EmptyState>
      )}
      {history.data && history.data.length > 0 && (
        <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
          <Table aria-label="Search history">
            <TableHead>
              <TableRow>
                <TableCell>Search</TableCell>
                <TableCell>Where</TableCell>
                <TableCell>When</TableCell>
                <TableCell align="right">Run again</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {history.data.map((entry) => {
                const search = searchFromHistory(entry.request);
                const text = search.query || [...search.authors, ...search.boards].join(', ');
                return (
                  <TableRow key={entry.id}>
                    <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{text}</TableCell>
                    <TableCell>{tabOf(search.tab).label}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(new Date(entry.createdAt * 1000))}
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        component={RouterLink}
                        to={resultsUrl(search)}
                        startIcon={<ReplayOutlined />}
                        aria-label={`Run “${text}” again`}
                      >
                        Run
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
