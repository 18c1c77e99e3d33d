import { type MouseEvent, useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { activeArea, type AreaId, type ProductArea, productAreas } from '../lib/productAreas';
import { useAppNavigate } from './useAppNavigate';
import { useConfirm } from './useConfirm';
import { useProfile } from './useProfileQuery';

export const SKIP_LOGOUT_CONFIRM_COOKIE = 'sightline_skip_logout_confirm';

export interface AreaNavigation {
  areas: ProductArea[];
  active: AreaId | undefined;
  /** The area whose page is being loaded after a click. */
  loading: AreaId | undefined;
  /** The click handler for an area's link; plain clicks navigate, modified clicks open a tab. */
  open: (area: ProductArea, event: MouseEvent) => void;
}

/** What the left rail and the cross-product menu share: the entitled areas and how to reach them. */
export function useAreaNavigation(): AreaNavigation {
  const profile = useProfile();
  const { pathname } = useLocation();
  const appNavigate = useAppNavigate();
  const confirm = useConfirm();
  // Remembering where the click happened clears the loading state once the route changes.
  const [clicked, setClicked] = useState<{ id: AreaId; from: string } | null>(null);
  const active = activeArea(pathname);

  useEffect(() => {
    // Coming back through the browser's page cache must not leave a button spinning.
    const clear = (event: PageTransitionEvent) => {
      if (event.persisted) setClicked(null);
    };
    window.addEventListener('pageshow', clear);
    return () => window.removeEventListener('pageshow', clear);
  }, []);

  const open = useCallback(
    (area: ProductArea, event: MouseEvent) => {
      // New-tab portals and modified clicks are the browser's business: the page stays.
      if (area.newTab || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      const go = () => {
        if (area.id !== active) setClicked({ id: area.id, from: pathname });
        appNavigate(area.href);
      };
      if (area.id !== 'logout') {
        go();
        return;
      }
      confirm({
        title: 'Sign out of Sightline?',
        text: 'You will need your e-mail and password to sign in again.',
        icon: 'info',
        acceptLabel: 'Sign out',
        onAccept: go,
        doNotShowAgainCookie: SKIP_LOGOUT_CONFIRM_COOKIE,
      });
    },
    [active, pathname, appNavigate, confirm],
  );

  return {
    areas: productAreas(profile),
    active,
    loading: clicked && clicked.from === pathname ? clicked.id : undefined,
    open,
  };
}
