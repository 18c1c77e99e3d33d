import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Analytics } from '../../api/analytics';
import { AnalyticsPanel } from './AnalyticsPanel';

const analytics: Analytics = {
  wordCloud: [
    { word: 'crane', count: 40 },
    { word: 'harbour', count: 12 },
    { word: 'quay', count: 2 },
  ],
  daily: [{ date: '2026-11-24', count: 40 }],
  analyzed: 2000,
  sampled: 1000,
  sampleRate: 0.01,
  complete: true,
  reached: '2026-10-26T00:00:00Z',
  dailyIsEstimate: true,
};

describe('AnalyticsPanel', () => {
  it('lists the words alphabetically, says what it counted, and adds a clicked word', async () => {
    const onWord = vi.fn();
    render(<AnalyticsPanel analytics={analytics} error={null} onRetry={() => {}} onWord={onWord} />);
    const words = screen.getAllByRole('button').map((b) => b.textContent);
    expect(words).toEqual(['crane', 'harbour', 'quay']);
    expect(screen.getByText(/In all of about 101.0k results: the newest 1.0k read, the older ones sampled \(1 in 100\)/)).toBeInTheDocument();
    expect(screen.getByText(/days beyond the newest results are estimated/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'harbour, in 12 results: add to the search' }));
    expect(onWord).toHaveBeenCalledWith('harbour');
  });

  it('says what the counts cover when every result was read, and when not even a sample reached back', () => {
    const { rerender } = render(
      <AnalyticsPanel
        analytics={{ ...analytics, sampled: 0, sampleRate: 1, analyzed: 740, dailyIsEstimate: false }}
        error={null}
        onRetry={() => {}}
        onWord={() => {}}
      />,
    );
    expect(screen.getByText(/In all 740 results\./)).toBeInTheDocument();
    rerender(
      <AnalyticsPanel
        analytics={{ ...analytics, sampled: 0, sampleRate: 1, complete: false, reached: '2026-11-20T10:00:00Z' }}
        error={null}
        onRetry={() => {}}
        onWord={() => {}}
      />,
    );
    expect(screen.getByText(/In the 2.0k results since /)).toBeInTheDocument();
  });

  it('says when there are no words, and offers a retry after an error', async () => {
    const { rerender } = render(
      <AnalyticsPanel analytics={{ ...analytics, wordCloud: [] }} error={null} onRetry={() => {}} onWord={() => {}} />,
    );
    expect(screen.getByText('The results have no words to count.')).toBeInTheDocument();
    const onRetry = vi.fn();
    rerender(<AnalyticsPanel analytics={undefined} error={new Error('boom')} onRetry={onRetry} onWord={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalled();
  });
});
