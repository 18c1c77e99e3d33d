// A "do not show again" choice must outlive every session, so its cookie carries the latest
// date a cookie can have.
export const NEVER_EXPIRES = 'Fri, 31 Dec 9999 23:59:59 GMT';

/** The decoded value of the named cookie, or undefined when it is not set. */
export function readCookie(name: string, cookies: string = document.cookie): string | undefined {
  for (const pair of cookies.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() !== name) continue;
    const raw = pair.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      // A value another tool wrote without encoding is still worth returning as it is.
      return raw;
    }
  }
  return undefined;
}

/** The Set-Cookie style string that keeps name=value for the whole site, forever. */
export function neverExpiringCookie(name: string, value: string): string {
  return `${name}=${encodeURIComponent(value)}; expires=${NEVER_EXPIRES}; path=/; SameSite=Lax`;
}

export function setNeverExpiringCookie(name: string, value = '1'): void {
  document.cookie = neverExpiringCookie(name, value);
}
