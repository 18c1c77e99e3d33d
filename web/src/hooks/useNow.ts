import { useCallback, useSyncExternalStore } from 'react';

/** How often relative times ("just now", "3 min ago") are read again. */
export const RELATIVE_TIME_TICK_MS = 15_000;

interface Clock {
  now: Date;
  listeners: Set<() => void>;
  timer?: ReturnType<typeof setInterval>;
}

// One clock per interval, ticking only while something reads it: a feed of a hundred cards
// shares one timer and re-renders together, rather than each card keeping its own.
const clocks = new Map<number, Clock>();

function clockOf(intervalMs: number): Clock {
  let clock = clocks.get(intervalMs);
  if (!clock) {
    clock = { now: new Date(), listeners: new Set() };
    clocks.set(intervalMs, clock);
  }
  return clock;
}

function subscribe(intervalMs: number, listener: () => void): () => void {
  const clock = clockOf(intervalMs);
  clock.listeners.add(listener);
  if (clock.timer === undefined) {
    // A clock that slept reads the time afresh on waking.
    clock.now = new Date();
    clock.timer = setInterval(() => {
      clock.now = new Date();
      clock.listeners.forEach((l) => l());
    }, intervalMs);
  }
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0) {
      clearInterval(clock.timer);
      clock.timer = undefined;
    }
  };
}

/** The current time, renewed every `intervalMs` by a timer shared with every other reader of that interval. */
export function useNow(intervalMs = RELATIVE_TIME_TICK_MS): Date {
  const subscribeToClock = useCallback((listener: () => void) => subscribe(intervalMs, listener), [intervalMs]);
  return useSyncExternalStore(subscribeToClock, () => clockOf(intervalMs).now);
}
