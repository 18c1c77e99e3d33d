export const REFRESH_CHECK_INTERVAL_MS = 60_000;
export const REFRESH_AFTER_MS = 5 * 60_000;

export function isRefreshDue(lastRefreshAt: number, now: number): boolean {
  return now - lastRefreshAt >= REFRESH_AFTER_MS;
}

export interface TokenRefreshOptions {
  /** Obtains a fresh token; its failures are the caller's to handle. */
  refresh: () => Promise<unknown>;
  /** When the held token was obtained, in milliseconds since the epoch; null when none is held (nothing to renew). */
  lastRefreshAt: () => number | null;
  now?: () => number;
}

/**
 * Checks every minute whether the bearer token is five minutes old and renews it if so.
 * Returns the function that stops the checks.
 */
export function startTokenRefresh({ refresh, lastRefreshAt, now = Date.now }: TokenRefreshOptions): () => void {
  let inFlight = false;
  const timer = setInterval(() => {
    // A slow refresh must not be doubled by the next tick.
    const last = lastRefreshAt();
    if (inFlight || last === null || !isRefreshDue(last, now())) return;
    inFlight = true;
    refresh()
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
      });
  }, REFRESH_CHECK_INTERVAL_MS);
  return () => clearInterval(timer);
}
