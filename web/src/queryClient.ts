import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/transport';

/** Server state for the whole app; a refused or canceled request is not worth repeating. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && (error.canceled || (error.status >= 400 && error.status < 500))) {
            return false;
          }
          return failureCount < 2;
        },
      },
    },
  });
}
