import { describe, expect, it } from 'vitest';
import { auditLines } from './auditValue';

describe('auditLines', () => {
  it.each([
    [null, []],
    ['', []],
    ['127.0.0.1', ['127.0.0.1']],
    [{ keywords: 'flood OR fire' }, ['keywords: flood OR fire']],
    [
      { display_theme: 'dark', is_inbox_streaming_enabled: true },
      ['display theme: dark', 'is inbox streaming enabled: true'],
    ],
    [{ providers: ['twitter', 'reddit'], start_at: null }, ['providers: ["twitter","reddit"]', 'start at: null']],
  ])('shows %j as %j', (value, lines) => {
    expect(auditLines(value)).toEqual(lines);
  });
});
