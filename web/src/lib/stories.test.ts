import { describe, expect, it } from 'vitest';
import { hourlyCounts } from './stories';

describe('hourlyCounts', () => {
  it.each([
    { name: 'no posts', timeline: [], want: [] },
    { name: 'one hour', timeline: [{ hour: '2026-11-27T10:00:00Z', count: 4 }], want: [4] },
    {
      name: 'quiet hours between are zero',
      timeline: [
        { hour: '2026-11-27T10:00:00Z', count: 4 },
        { hour: '2026-11-27T11:00:00Z', count: 1 },
        { hour: '2026-11-27T14:00:00Z', count: 2 },
      ],
      want: [4, 1, 0, 0, 2],
    },
  ])('$name', ({ timeline, want }) => {
    expect(hourlyCounts(timeline)).toEqual(want);
  });
});
