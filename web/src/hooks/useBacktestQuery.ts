import { useQuery } from '@tanstack/react-query';
import { monitorKeys } from '../api/keys';
import { type BacktestRequest, backtestSearch } from '../api/monitor';

/**
 * The preview of a draft search. Keyed by the whole draft, so a changed search runs again and
 * going back and forth between the builder and the preview reuses the answer for a minute.
 */
export function useBacktestQuery(draft: BacktestRequest) {
  return useQuery({
    queryKey: monitorKeys.backtest(draft),
    queryFn: ({ signal }) => backtestSearch(draft, signal),
    staleTime: 60_000,
    retry: false,
  });
}
