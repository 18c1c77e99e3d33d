import { useQuery } from '@tanstack/react-query';
import { monitorKeys, trendKeys } from '../api/keys';
import { fetchBeaconTrends, fetchMonitorTrends, fetchSearchSpikes } from '../api/spikes';

/** A saved search's spikes of the last seven days. */
export function useSearchSpikesQuery(searchId: number) {
  return useQuery({ queryKey: monitorKeys.spikes(searchId), queryFn: ({ signal }) => fetchSearchSpikes(searchId, signal) });
}

/** Emerging terms among the user's matches (the dashboard's Trending widget). */
export function useMonitorTrendsQuery() {
  return useQuery({ queryKey: monitorKeys.trends, queryFn: ({ signal }) => fetchMonitorTrends(signal) });
}

/** Emerging terms among every post the user may see (Beacon's "Trending now"). */
export function useBeaconTrendsQuery() {
  return useQuery({ queryKey: trendKeys.beacon, queryFn: ({ signal }) => fetchBeaconTrends(signal) });
}
