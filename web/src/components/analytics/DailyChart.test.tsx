import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { DailyChart } from './DailyChart';

// The test setup measures text at 6 px a character, as ECharts is told; a chart 320 px wide.
const CHAR_WIDTH = 6;

function days(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.UTC(2026, 10, 1 + i)).toISOString().slice(0, 10),
    count: i,
  }));
}

/** The x axis's labels as drawn: their text and the span each covers. */
function axisLabels(container: HTMLElement, pattern: RegExp) {
  return [...container.querySelectorAll('text')]
    .filter((t) => pattern.test(t.textContent ?? ''))
    .map((t) => {
      const x = Number(/translate\(([-\d.]+)/.exec(t.getAttribute('transform') ?? '')?.[1] ?? 'NaN');
      const width = (t.textContent ?? '').length * CHAR_WIDTH;
      return { text: t.textContent, from: x - width / 2, to: x + width / 2 };
    })
    .sort((a, b) => a.from - b.from);
}

describe('daily chart', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    { span: 7, pattern: /^[A-Z][a-z]{2} \d+$/, first: 'Sun 1' },
    { span: 30, pattern: /^\d+ Nov$/, first: '1 Nov' },
  ])('labels $span days without any two overlapping', async ({ span, pattern, first }) => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(320);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(200);
    const { container } = renderWithApp(<DailyChart daily={days(span)} estimate={false} />, { profile: testProfile() });
    await vi.waitFor(() => expect(axisLabels(container, pattern).length).toBeGreaterThan(0));
    const labels = axisLabels(container, pattern);
    expect(labels[0]?.text).toBe(first);
    for (let i = 1; i < labels.length; i++) {
      expect(labels[i]!.from, `${labels[i - 1]!.text} and ${labels[i]!.text}`).toBeGreaterThanOrEqual(
        labels[i - 1]!.to,
      );
    }
    expect(screen.getByRole('img')).toHaveAccessibleName(/^Results per day: 2026-11-01 0/);
  });
});
