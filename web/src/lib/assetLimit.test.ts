import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/transport';
import { assetLimitOf } from './assetLimit';

describe('assetLimitOf', () => {
  it.each([
    [
      'a limit reply',
      new ApiError('Asset Limit Reached', 422, {
        message: 'Asset Limit Reached',
        limitExceeded: true,
        title: 'Asset Limit Reached',
        description: 'Contact support.',
      }),
      { title: 'Asset Limit Reached', description: 'Contact support.' },
    ],
    [
      'a limit reply without title',
      new ApiError('Limit', 422, { message: 'Limit', limitExceeded: true }),
      { title: 'Limit', description: '' },
    ],
    ['a validation reply', new ApiError('Invalid', 422, { message: 'Invalid', errors: { name: ['x'] } }), null],
    ['a network failure', new ApiError('Offline', 0), null],
    ['another error', new Error('boom'), null],
  ])('%s', (_name, failure, want) => {
    expect(assetLimitOf(failure)).toEqual(want);
  });
});
