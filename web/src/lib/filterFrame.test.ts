import { describe, expect, it } from 'vitest';
import { readFilterFrameMessage } from './filterFrame';

describe('filter frame messages', () => {
  it.each([
    { data: { type: 'loaded' }, want: { type: 'loaded' } },
    { data: { type: 'closeModal' }, want: { type: 'closeModal' } },
    { data: { type: 'createdFilterList', id: 4 }, want: { type: 'createdFilterList', id: 4 } },
    { data: { type: 'createdFilterList', id: '4' }, want: null },
    { data: { type: 'createdFilterList' }, want: null },
    { data: { type: 'other' }, want: null },
    { data: 'loaded', want: null },
    { data: null, want: null },
  ])('$data', ({ data, want }) => {
    expect(readFilterFrameMessage(data)).toEqual(want);
  });
});
