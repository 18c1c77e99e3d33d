export const HOME_PATH = '/monitor/dashboard';
export const LOGIN_PATH = '/login';

// Any origin works as the base: a path that keeps it after resolving stayed on our site.
const probeOrigin = 'https://sightline.invalid';

/**
 * The place to go after signing in. Only a relative path on this site is accepted, so a crafted
 * sign-in link cannot send the user elsewhere; anything else, and the sign-in and sign-out pages
 * themselves, fall back to the home page.
 */
export function safeRedirectPath(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || /[\\\s]/.test(raw)) return HOME_PATH;
  let url: URL;
  try {
    url = new URL(raw, probeOrigin);
  } catch {
    return HOME_PATH;
  }
  if (url.origin !== probeOrigin) return HOME_PATH;
  if (url.pathname === LOGIN_PATH || url.pathname === '/logout') return HOME_PATH;
  return url.pathname + url.search + url.hash;
}

/** The sign-in page address that brings the user back to where they were. */
export function loginPathFor(location: { pathname: string; search: string; hash: string }): string {
  const wanted = location.pathname + location.search + location.hash;
  const target = safeRedirectPath(wanted);
  if (target === HOME_PATH && wanted !== HOME_PATH) return LOGIN_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ redirect: target }).toString()}`;
}
