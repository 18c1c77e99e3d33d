import { describe, expect, it } from 'vitest';
import { visibilityOnly } from './emotionForTests';

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
    ['an @media left empty', '@media (min-width:600px){.css-a{color:red;margin:0;}}', ''],
    [
      'every display inside @media',
      '@media (min-width:600px){.css-a{display:flex;color:red;}}',
      '@media (min-width:600px){.css-a{display:flex;}}',
    ],
    [
      'several rules in one text',
      '.css-a{display:flex;opacity:0;} @media (min-width:0px){.css-a{display:block;}}',
      '.css-a{opacity:0;} @media (min-width:0px){.css-a{display:block;}}',
    ],
    [
      'a state rule',
      '.css-a.Mui-disabled{pointer-events:none;cursor:default;}',
      '.css-a.Mui-disabled{pointer-events:none;}',
    ],
  ])('%s', (_, rule, want) => {
    expect(visibilityOnly(rule)).toBe(want);
  });

  it('keeps what decides that a drawn element is hidden (a document with the rule)', () => {
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

  // MUI's display: { xs: 'none', sm: 'flex' } (the left rail): hidden on a phone, shown at the
  // test viewport's width, as in a browser.
  it('keeps a responsive display, so a wider breakpoint still shows what a narrower one hides', () => {
    const style = document.createElement('style');
    style.setAttribute('data-emotion', 'css');
    document.head.appendChild(style);
    style.appendChild(document.createTextNode('@media (min-width:0px){.css-r{display:none;}}'));
    style.appendChild(document.createTextNode('@media (min-width:600px){.css-r{display:flex;color:red;}}'));
    style.appendChild(document.createTextNode('@media (min-width:100000px){.css-w{display:none;}}'));
    const responsive = document.createElement('div');
    responsive.className = 'css-r';
    const wide = document.createElement('div');
    wide.className = 'css-w';
    document.body.append(responsive, wide);
    expect(getComputedStyle(responsive).display).toBe('flex');
    expect(getComputedStyle(wide).display).not.toBe('none');
    style.remove();
    responsive.remove();
    wide.remove();
  });
});
