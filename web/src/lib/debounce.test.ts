import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { leadingDebounce } from './debounce';

describe('leadingDebounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('calls at once, then with the latest value after a quiet spell', () => {
    const fn = vi.fn();
    const debounced = leadingDebounce(fn, 250);
    debounced('p');
    expect(fn).toHaveBeenLastCalledWith('p');
    debounced('pa');
    debounced('par');
    vi.advanceTimersByTime(249);
    expect(fn).toHaveBeenCalledTimes(1);
    debounced('pari');
    vi.advanceTimersByTime(249);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn).toHaveBeenLastCalledWith('pari');
  });

  it('does not repeat a single call', () => {
    const fn = vi.fn();
    leadingDebounce(fn, 250)('paris');
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('starts a new burst with a leading call', () => {
    const fn = vi.fn();
    const debounced = leadingDebounce(fn, 250);
    debounced('a');
    vi.advanceTimersByTime(300);
    debounced('b');
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('can be cancelled', () => {
    const fn = vi.fn();
    const debounced = leadingDebounce(fn, 250);
    debounced('a');
    debounced('b');
    debounced.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
