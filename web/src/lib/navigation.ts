// Areas other issues build, or other apps serve, are reached by a full browser load so the
// server decides what answers them; /404 too, so a dead end always starts from a clean page.
const fullLoadPaths = ['/settings', '/locate', '/beacon', '/compliance', '/logout', '/rfi', '/cti', '/404'];

export function isFullLoadPath(target: string): boolean {
  const pathname = target.split(/[?#]/, 1)[0] ?? '';
  return fullLoadPaths.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

/** Leaves the app for a full browser load of target. */
export function loadPage(target: string): void {
  window.location.assign(target);
}

/** Whether target (path, query and hash) names the place the browser already shows. */
export function isSameLocation(current: { pathname: string; search: string; hash: string }, target: string): boolean {
  const url = new URL(target, 'https://sightline.invalid');
  return url.pathname === current.pathname && url.search === current.search && url.hash === current.hash;
}

const inboxOrDashboard = /^\/(monitor|assets)\/(dashboard|matches(\/(grid|list|map))?)\/?$/;

/** The Monitor screens that filter by the top bar's searchText instead of leaving for the inbox. */
export function readsSearchText(pathname: string): boolean {
  return inboxOrDashboard.test(pathname);
}

/** Where the Monitor area lives in this address: /monitor, or its /assets alias. */
export function monitorAreaBase(pathname: string): '/monitor' | '/assets' {
  return pathname === '/assets' || pathname.startsWith('/assets/') ? '/assets' : '/monitor';
}
