import { describe, expect, it } from 'vitest';
import {
  answerPieces,
  EXAMPLE_PROMPTS,
  initials,
  isValidSource,
  newSessionId,
  pickPrompts,
  sessionId,
} from './assistant';

describe('assistant rules', () => {
  it('picks three distinct prompts of the nine', () => {
    expect(EXAMPLE_PROMPTS).toHaveLength(9);
    const picked = pickPrompts(3, () => 0.5);
    expect(new Set(picked).size).toBe(3);
    for (const p of picked) expect(EXAMPLE_PROMPTS).toContain(p);
  });

  it('takes initials from the first two words', () => {
    expect(initials('ana maria lopez')).toBe('AM');
    expect(initials('Bo')).toBe('B');
  });

  it('needs created_at, text and provider in a source', () => {
    const source = {
      id: 'a',
      provider: 'reddit',
      title_text: '',
      text: 'x',
      author_name: '',
      author_screen_name: '',
      created_at: 1,
    };
    expect(isValidSource(source)).toBe(true);
    expect(isValidSource({ ...source, created_at: 0 })).toBe(false);
    expect(isValidSource({ ...source, provider: '' })).toBe(false);
  });

  it('keeps the session id in session storage until a new topic', () => {
    sessionStorage.clear();
    const first = sessionId();
    expect(sessionId()).toBe(first);
    const second = newSessionId();
    expect(second).not.toBe(first);
    expect(sessionId()).toBe(second);
  });

  it('splits an answer into text and citations', () => {
    expect(answerPieces('A. [1] B. [2][3]')).toEqual([
      { text: 'A. ' },
      { cite: 1 },
      { text: ' B. ' },
      { cite: 2 },
      { cite: 3 },
    ]);
  });
});
