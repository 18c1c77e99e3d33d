// Whether a user keeps the Monitor area's matches sidebar (its navigation panel: the pages and
// saved searches with their unread matches) open or closed. The server keeps no free-form user
// preferences, so the choice lives in this browser's localStorage, one key per user, as the
// guided start's does (lib/getStarted.ts).

const key = (userId: number) => `sightline.matchesSidebar.${userId}`;

/** The user's choice, or null when they never made one (the screen's width decides). */
export function readSidebarOpen(userId: number): boolean | null {
  try {
    const value = localStorage.getItem(key(userId));
    return value === 'open' ? true : value === 'closed' ? false : null;
  } catch {
    // Storage refused (private mode, a policy): as for a user who never chose.
    return null;
  }
}

export function writeSidebarOpen(userId: number, open: boolean): void {
  try {
    localStorage.setItem(key(userId), open ? 'open' : 'closed');
  } catch {
    // Not remembered; the sidebar still follows the choice until the page is left.
  }
}
