import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELATIVE_TIME_TICK_MS } from '../hooks/useNow';
import { RelativeTime } from './RelativeTime';

const start = new Date('2026-11-28T09:00:00Z');

describe('RelativeTime', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(start);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ages as the clock runs', () => {
    render(<RelativeTime date={new Date(start.getTime() - 50_000)} />);
    expect(screen.getByText('just now')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(RELATIVE_TIME_TICK_MS - 1));
    expect(screen.getByText('just now')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('1 min ago')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2 * 60_000));
    expect(screen.getByText('3 min ago')).toBeInTheDocument();
  });

  it('shares one timer between every time shown, and stops it when none is', () => {
    const { unmount } = render(
      <>
        <RelativeTime date={new Date(start.getTime() - 10_000)} />
        <RelativeTime date={new Date(start.getTime() - 30_000)} />
        <RelativeTime date={new Date(start.getTime() - 3_600_000)} />
      </>,
    );
    expect(vi.getTimerCount()).toBe(1);
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getAllByText('1 min ago')).toHaveLength(2);
    expect(screen.getByText('1 h ago')).toBeInTheDocument();
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
