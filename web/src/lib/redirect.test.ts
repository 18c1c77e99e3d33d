import { describe, expect, it } from 'vitest';
import { HOME_PATH, loginPathFor, safeRedirectPath } from './redirect';

describe('safeRedirectPath', () => {
  const cases: [string | null, string][] = [
    [null, HOME_PATH],
    ['', HOME_PATH],
    ['/monitor/groups', '/monitor/groups'],
    ['/monitor/matches/grid?searchText=a%20b#top', '/monitor/matches/grid?searchText=a%20b#top'],
    ['/settings', '/settings'],
    ['https://evil.example/monitor', HOME_PATH],
    ['//evil.example/monitor', HOME_PATH],
    ['/\\evil.example', HOME_PATH],
    ['\\\\evil.example', HOME_PATH],
    ['/\t/evil.example', HOME_PATH],
    ['javascript:alert(1)', HOME_PATH],
    ['monitor/groups', HOME_PATH],
    ['/login', HOME_PATH],
    ['/login?redirect=/monitor', HOME_PATH],
    ['/logout', HOME_PATH],
    ['/monitor/../settings', '/settings'],
  ];
  for (const [raw, want] of cases) {
    it(`maps ${JSON.stringify(raw)} to ${want}`, () => {
      expect(safeRedirectPath(raw)).toBe(want);
    });
  }
});

describe('loginPathFor', () => {
  const cases: [{ pathname: string; search: string; hash: string }, string][] = [
    [{ pathname: '/monitor/groups', search: '', hash: '' }, '/login?redirect=%2Fmonitor%2Fgroups'],
    [
      { pathname: '/monitor/matches/grid', search: '?searchText=x', hash: '' },
      '/login?redirect=%2Fmonitor%2Fmatches%2Fgrid%3FsearchText%3Dx',
    ],
    [{ pathname: '/monitor/dashboard', search: '', hash: '' }, '/login?redirect=%2Fmonitor%2Fdashboard'],
    [{ pathname: '/logout', search: '', hash: '' }, '/login'],
  ];
  for (const [location, want] of cases) {
    it(`keeps ${location.pathname}${location.search}`, () => {
      expect(loginPathFor(location)).toBe(want);
    });
  }
});
