import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * Holds back leaving a screen with unsaved changes: an in-app navigation to another path is
 * blocked (the returned blocker says so, for a dialog to settle) and closing or reloading the
 * tab asks the browser's own question.
 */
export function useLeaveGuard(dirty: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return blocker;
}
