import { queryOptions, useQuery } from '@tanstack/react-query';
import { sessionKeys } from '../api/keys';
import { currentToken, renewToken } from '../api/transport';

// A reload loses the in-memory bearer token; the session cookie, if any, buys a new one.
export const sessionQuery = queryOptions({
  queryKey: sessionKeys.current,
  queryFn: () => currentToken() ?? renewToken({ atBoot: true }),
  staleTime: Infinity,
  retry: false,
});

export function useSessionQuery() {
  return useQuery(sessionQuery);
}
