import { describe, expect, it } from 'vitest';
import { isFullLoadPath, isSameLocation, monitorAreaBase, readsSearchText } from './navigation';

describe('isFullLoadPath', () => {
  const cases: [string, boolean][] = [
    ['/settings', true],
    ['/settings/profile', true],
    ['/locate', true],
    ['/beacon?x=1', true],
    ['/compliance', true],
    ['/logout', true],
    ['/rfi', true],
    ['/cti#reports', true],
    ['/404', true],
    ['/monitor/dashboard', false],
    ['/assets/groups', false],
    ['/settingsx', false],
    ['/login', false],
    ['/', false],
  ];
  for (const [path, want] of cases) {
    it(`${path} → ${want}`, () => {
      expect(isFullLoadPath(path)).toBe(want);
    });
  }
});

describe('isSameLocation', () => {
  const here = { pathname: '/monitor/matches/grid', search: '?searchText=a', hash: '' };
  const cases: [string, boolean][] = [
    ['/monitor/matches/grid?searchText=a', true],
    ['/monitor/matches/grid?searchText=b', false],
    ['/monitor/matches/grid', false],
    ['/monitor/matches/list?searchText=a', false],
  ];
  for (const [target, want] of cases) {
    it(`${target} → ${want}`, () => {
      expect(isSameLocation(here, target)).toBe(want);
    });
  }
});

describe('readsSearchText', () => {
  const cases: [string, boolean][] = [
    ['/monitor/dashboard', true],
    ['/monitor/matches', true],
    ['/monitor/matches/grid', true],
    ['/monitor/matches/list', true],
    ['/assets/matches/map', true],
    ['/monitor/groups', false],
    ['/monitor/filters', false],
    ['/monitor/abc123', false],
    ['/monitor/matches/other', false],
  ];
  for (const [path, want] of cases) {
    it(`${path} → ${want}`, () => {
      expect(readsSearchText(path)).toBe(want);
    });
  }
});

describe('monitorAreaBase', () => {
  it.each([
    ['/monitor/groups', '/monitor'],
    ['/assets/groups/3', '/assets'],
    ['/assets', '/assets'],
    ['/assetsx/1', '/monitor'],
  ])('%s is under %s', (pathname, base) => {
    expect(monitorAreaBase(pathname)).toBe(base);
  });
});
