import { describe, expect, it } from 'vitest';
import { visibilityOnly } from './emotionForJsdom';

describe('visibilityOnly', () => {
  it.each([
    ['a rule without what tests see', '.css-a{display:flex;color:red;margin:0 4px;}', ''],
    ['display none kept, other displays dropped', '.css-a{display:none;color:red;}', '.css-a{display:none;}'],
    [
      'every visibility, opacity and pointer-events',
      '.css-a .B{visibility:hidden;opacity:0;pointer-events:auto;width:1px;}',
      '.css-a .B{visibility:hidden;opacity:0;pointer-events:auto;}',
    ],
    [
      'inside @media',
      '@media (pointer: fine){.css-a:hover .C{visibility:visible;cursor:pointer;}}',
      '@media (pointer: fine){.css-a:hover .C{visibility:visible;}}',
    ],
    ['an @media left empty', '@media (min-width:600px){.css-a{display:block;}}', ''],
    [
      'a state rule',
      '.css-a.Mui-disabled{pointer-events:none;cursor:default;}',
      '.css-a.Mui-disabled{pointer-events:none;}',
    ],
  ])('%s', (_, rule, want) => {
    expect(visibilityOnly(rule)).toBe(want);
  });

  it('keeps what decides that a drawn element is hidden (a jsdom document with the rule)', () => {
    const style = document.createElement('style');
    style.setAttribute('data-emotion', 'css');
    document.head.appendChild(style);
    style.appendChild(document.createTextNode('.css-h{display:none;color:red;} .css-v{display:flex;color:blue;}'));
    const hidden = document.createElement('div');
    hidden.className = 'css-h';
    const shown = document.createElement('div');
    shown.className = 'css-v';
    document.body.append(hidden, shown);
    expect(getComputedStyle(hidden).display).toBe('none');
    expect(getComputedStyle(hidden).color).not.toBe('rgb(255, 0, 0)');
    expect(getComputedStyle(shown).display).not.toBe('none');
    style.remove();
    hidden.remove();
    shown.remove();
  });
});
