// The dashboard's guided start (web/README.md): the topics it suggests and whether a user has
// begun it or put it away. The server keeps no free-form user preferences (the profile's switches
// are fixed columns), so the choice lives in this browser's localStorage, one key per user.

/**
 * Topics to start from: words the demo simulator writes posts about in every language it uses
 * (internal/connector/simulator/topics.go), so a search for one fills its inbox within minutes.
 */
export const SUGGESTED_TOPICS: { label: string; keywords: string }[] = [
  { label: 'Protests', keywords: 'protest' },
  { label: 'Ransomware', keywords: 'ransomware' },
  { label: 'Data breaches', keywords: 'breach' },
  { label: 'Scams', keywords: 'scam' },
  { label: 'Elections', keywords: 'election' },
  { label: 'Disasters', keywords: 'disaster' },
];

/** Begun: shown to a user without saved searches, it stays until put away. */
export type GuideState = 'started' | 'dismissed';

const key = (userId: number) => `sightline.getStarted.${userId}`;

export function readGuide(userId: number): GuideState | null {
  try {
    const value = localStorage.getItem(key(userId));
    return value === 'started' || value === 'dismissed' ? value : null;
  } catch {
    // Storage refused (private mode, a policy): the guide shows, as for a new user.
    return null;
  }
}

export function writeGuide(userId: number, state: GuideState): void {
  try {
    localStorage.setItem(key(userId), state);
  } catch {
    // Not remembered; nothing else depends on it.
  }
}
