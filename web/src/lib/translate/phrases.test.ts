import { describe, expect, it } from 'vitest';
import { appendKeywords, asTerm, keywordsToTranslate, translatedPhrases } from './phrases';

describe('translatedPhrases', () => {
  it.each([
    ['inondation OR pont,', ['inondation', 'pont']],
    ['"pont fermé" OR inondation OR inondation', ['"pont fermé"', 'inondation']],
    ['"a OR b" OR c', ['"a OR b"', 'c']],
    ['  ', []],
    ['or lowercase stays', ['or lowercase stays']],
  ])('%s', (text, want) => {
    expect(translatedPhrases(text)).toEqual(want);
  });
});

describe('appendKeywords', () => {
  it.each([
    ['', ['inondation'], 'inondation'],
    ['flood', ['inondation', 'Überschwemmung'], 'flood OR inondation OR Überschwemmung'],
    ['flood AND bridge', ['pont'], '(flood AND bridge) OR pont'],
    ['flood', ['pont fermé'], 'flood OR "pont fermé"'],
    ['flood OR inondation', ['inondation'], 'flood OR inondation'],
  ])('%s + %j', (existing, added, want) => {
    expect(appendKeywords(existing, added)).toBe(want);
  });

  it('quotes phrases once', () => {
    expect(asTerm('"already quoted"')).toBe('"already quoted"');
    expect(asTerm('two words')).toBe('"two words"');
  });
});

describe('keywordsToTranslate', () => {
  it.each([
    ['flood, bridge closed', ['flood', 'bridge closed']],
    ['"bridge closed"~3 OR -spam OR flood AND storm', ['bridge closed', 'spam', 'flood storm']],
    ['flood OR flood, !!', ['flood']],
    ['', []],
  ])('%s', (text, want) => {
    expect(keywordsToTranslate(text)).toEqual(want);
  });
});
