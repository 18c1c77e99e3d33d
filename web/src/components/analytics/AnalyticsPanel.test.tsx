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
  complete: false,
  dailyIsEstimate: true,
};

describe('AnalyticsPanel', () => {
  it('lists the words alphabetically, says what it counted, and adds a clicked word', async () => {
    const onWord = vi.fn();
    render(<AnalyticsPanel analytics={analytics} error={null} onRetry={() => {}} onWord={onWord} />);
    const words = screen.getAllByRole('button').map((b) => b.textContent);
    expect(words).toEqual(['crane', 'harbour', 'quay']);
    expect(screen.getByText(/In the newest 2.0k results/)).toBeInTheDocument();
    expect(screen.getByText(/days beyond the newest results are estimated/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'harbour, in 12 results: add to the search' }));
    expect(onWord).toHaveBeenCalledWith('harbour');
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
