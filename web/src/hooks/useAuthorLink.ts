import { authorPath } from '../lib/authorProfile';
import { canOpen } from '../lib/productAreas';
import type { Post } from '../api/monitor';
import { useProfile } from './useProfileQuery';

/** Where a card's author name leads: their profile, for users who may open Beacon. */
export function useAuthorLink(): (post: Post) => string | null {
  const profile = useProfile();
  const allowed = canOpen('beacon', profile);
  return (post) => (allowed ? authorPath(post) : null);
}
