import { describe, expect, it } from 'vitest';
import { resultMessage } from './useMatchActions';

describe('bulk action messages', () => {
  it.each([
    { flag: 'is-flagged' as const, value: true, updated: 2, expected: 2, want: '2 matches flagged', color: 'success' },
    {
      flag: 'is-read' as const,
      value: true,
      updated: 1,
      expected: 1,
      want: '1 match marked as read',
      color: 'success',
    },
    {
      flag: 'is-read' as const,
      value: false,
      updated: 1200,
      expected: 1200,
      want: '1.2k matches marked as unread',
      color: 'success',
    },
    {
      flag: 'is-deleted' as const,
      value: true,
      updated: 3,
      expected: 5,
      want: 'Only 3 of 5 matches were deleted: the others belong to searches you can only view.',
      color: 'warning',
    },
  ])('$want', ({ flag, value, updated, expected, want, color }) => {
    expect(resultMessage({ flag, value }, { updatedCount: updated, expectedCount: expected })).toEqual({
      text: want,
      color,
    });
  });
});
