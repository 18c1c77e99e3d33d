import { afterEach, describe, expect, it } from 'vitest';
import { NEVER_EXPIRES, neverExpiringCookie, readCookie, setNeverExpiringCookie } from './cookies';

describe('readCookie', () => {
  const cases: { name: string; cookies: string; want: string | undefined }[] = [
    { name: 'XSRF-TOKEN', cookies: '', want: undefined },
    { name: 'XSRF-TOKEN', cookies: 'XSRF-TOKEN=abc', want: 'abc' },
    { name: 'XSRF-TOKEN', cookies: 'a=1; XSRF-TOKEN=eyJ%3D%3D; b=2', want: 'eyJ==' },
    { name: 'XSRF-TOKEN', cookies: 'X-XSRF-TOKEN=wrong; XSRF-TOKEN=right', want: 'right' },
    { name: 'token', cookies: 'token=a=b', want: 'a=b' },
    { name: 'bad', cookies: 'bad=%E0%A4%A', want: '%E0%A4%A' },
    { name: 'empty', cookies: 'empty=', want: '' },
    { name: 'missing', cookies: 'other=1;noequals', want: undefined },
  ];
  for (const c of cases) {
    it(`reads ${c.name} from "${c.cookies}"`, () => {
      expect(readCookie(c.name, c.cookies)).toBe(c.want);
    });
  }
});

describe('never-expiring cookie', () => {
  afterEach(() => {
    document.cookie = 'hide-dialog=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('expires at the end of year 9999 and covers the whole site', () => {
    expect(neverExpiringCookie('hide-dialog', 'yes please')).toBe(
      `hide-dialog=yes%20please; expires=${NEVER_EXPIRES}; path=/; SameSite=Lax`,
    );
    expect(NEVER_EXPIRES).toBe('Fri, 31 Dec 9999 23:59:59 GMT');
  });

  it('is readable once set', () => {
    expect(readCookie('hide-dialog')).toBeUndefined();
    setNeverExpiringCookie('hide-dialog');
    expect(readCookie('hide-dialog')).toBe('1');
  });
});
