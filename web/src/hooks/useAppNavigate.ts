import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isFullLoadPath, isSameLocation, loadPage } from '../lib/navigation';

/**
 * Goes to target the way the spec wants: areas outside the app by a full browser load, app
 * screens through the router, and a repeated navigation to the current place not at all.
 */
export function useAppNavigate(): (target: string, options?: { replace?: boolean }) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (target, options) => {
      if (isSameLocation(location, target)) return;
      if (isFullLoadPath(target)) {
        loadPage(target);
        return;
      }
      void navigate(target, options);
    },
    [navigate, location],
  );
}
