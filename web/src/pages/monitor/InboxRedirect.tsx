import { Navigate, useLocation } from 'react-router';

/** matches → matches/grid, keeping the search text and filters of the address. */
export function InboxRedirect() {
  const { search } = useLocation();
  return <Navigate to={`grid${search}`} replace />;
}
