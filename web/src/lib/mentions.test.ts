import { describe, expect, it } from 'vitest';
import { handleOf, mentionAt } from './mentions';

describe('mentionAt', () => {
  it.each([
    ['@an', 3, { start: 0, query: 'an' }],
    ['hi @Ana', 7, { start: 3, query: 'ana' }],
    ['hi @', 4, { start: 3, query: '' }],
    ['(@bob.s', 7, { start: 1, query: 'bob.s' }],
    ['mail ana@acme', 13, null],
    ['@ana done', 9, null],
    ['@ana done', 4, { start: 0, query: 'ana' }],
  ])('%s at %i', (text, caret, want) => {
    expect(mentionAt(text, caret)).toEqual(want);
  });
});

describe('handleOf', () => {
  it('prefers the username and falls back to the e-mail', () => {
    expect(handleOf({ username: 'ana', email: 'ana@acme.test' })).toBe('ana');
    expect(handleOf({ username: '', email: 'bob@acme.test' })).toBe('bob@acme.test');
  });
});
