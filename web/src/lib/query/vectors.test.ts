// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { autoName, CODES, duplicateName, keywordList, keywordSummary, validateQuery } from './index';
import type { Mode, Severity } from './index';

// The vectors the Go package runs too, so the browser and the server cannot disagree.
interface Vectors {
  messages: { code: string; message: string }[];
  validation: { query: string; mode: Mode; issues: { code: string; severity: Severity }[] }[];
  keywords: { query: string; keywords: string[]; summary: string }[];
  autoName: { current: string; location: string; keywords: string; author: string; name: string }[];
  duplicateName: { name: string; duplicate: string }[];
}

const vectors = JSON.parse(
  readFileSync(new URL('../../../../internal/query/testdata/vectors.json', import.meta.url), 'utf8'),
) as Vectors;

const messages = new Map(vectors.messages.map((m) => [m.code, m.message]));
const short = (s: string) => ([...s].length > 40 ? [...s].slice(0, 40).join('') + '…' : s);

describe('query language vectors', () => {
  it('has the same codes and messages', () => {
    expect(CODES).toEqual(vectors.messages);
  });

  it.each(vectors.validation.map((v) => [v.mode, short(v.query), v] as const))('validates (%s) %j', (_m, _q, v) => {
    const want = v.issues.map((i) => ({ code: i.code, message: messages.get(i.code), severity: i.severity }));
    expect(validateQuery(v.query, v.mode)).toEqual(want);
  });

  it.each(vectors.keywords.map((v) => [v.query, v] as const))('parses keywords of %j', (_q, v) => {
    expect(keywordList(v.query)).toEqual(v.keywords);
    expect(keywordSummary(v.query)).toBe(v.summary);
  });

  it.each(vectors.autoName.map((v) => [short(v.location || v.keywords || v.author), v] as const))(
    'auto-fills the name from %j',
    (_s, v) => {
      expect(autoName(v.current, v.location, v.keywords, v.author)).toBe(v.name);
    },
  );

  it.each(vectors.duplicateName.map((v) => [v.name, v] as const))('names the duplicate of %j', (_n, v) => {
    expect(duplicateName(v.name)).toBe(v.duplicate);
  });
});
