export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  cancel: () => void;
}

/**
 * Calls fn at once on the first call of a burst, then once more, with the latest arguments, when
 * calls have stopped for wait milliseconds (a debounce with a leading call).
 */
export function leadingDebounce<A extends unknown[]>(fn: (...args: A) => void, wait: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const debounced = (...args: A) => {
    if (timer === undefined) fn(...args);
    else pending = args;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (pending) {
        const latest = pending;
        pending = undefined;
        fn(...latest);
      }
    }, wait);
  };
  debounced.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return debounced;
}
