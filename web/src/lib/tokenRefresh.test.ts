import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isRefreshDue, REFRESH_AFTER_MS, startTokenRefresh } from './tokenRefresh';

describe('isRefreshDue', () => {
  const cases: [number, boolean][] = [
    [0, false],
    [REFRESH_AFTER_MS - 1, false],
    [REFRESH_AFTER_MS, true],
    [REFRESH_AFTER_MS + 60_000, true],
  ];
  for (const [age, want] of cases) {
    it(`is ${want} for a token ${age} ms old`, () => {
      expect(isRefreshDue(1_000_000, 1_000_000 + age)).toBe(want);
    });
  }
});

describe('startTokenRefresh', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('checks every 60 s and refreshes once the token is 5 minutes old', async () => {
    let obtainedAt = Date.now();
    const refresh = vi.fn(async () => {
      obtainedAt = Date.now();
    });
    const stop = startTokenRefresh({ refresh, lastRefreshAt: () => obtainedAt });

    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(refresh).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(60_000);
    expect(refresh).toHaveBeenCalledTimes(1);

    // The new token starts a new five-minute wait.
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refresh).toHaveBeenCalledTimes(2);

    stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  // A page whose token this transport never obtained (a test's seeded session) has nothing to
  // renew: a slow test once saw a stray PUT /api/v1/token a minute in.
  it('renews nothing while no token is held', async () => {
    const refresh = vi.fn(async () => undefined);
    const stop = startTokenRefresh({ refresh, lastRefreshAt: () => null });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(refresh).not.toHaveBeenCalled();
    stop();
  });

  it('does not start a second refresh while one is still running', async () => {
    let finish: () => void = () => undefined;
    const refresh = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    const stop = startTokenRefresh({ refresh, lastRefreshAt: () => 0 });

    await vi.advanceTimersByTimeAsync(7 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(1);

    finish();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    stop();
  });

  it('keeps checking after a failed refresh', async () => {
    const refresh = vi.fn(() => Promise.reject(new Error('offline')));
    const stop = startTokenRefresh({ refresh, lastRefreshAt: () => 0 });

    await vi.advanceTimersByTimeAsync(6 * 60_000);
    // Due from the fifth minute on: the failure at 5 min does not stop the try at 6 min.
    expect(refresh).toHaveBeenCalledTimes(2);
    stop();
  });
});
