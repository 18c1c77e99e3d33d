import { useEffect, useState } from 'react';
import { REVEAL_INTERVAL_MS } from '../../lib/assistant';

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * How many characters of text to show: one more every 8 ms while typing, all of it at once when
 * not typing or when the user asks for reduced motion. onDone runs when all is shown.
 */
export function useReveal(text: string, typing: boolean, onDone: () => void): number {
  const instant = !typing || prefersReducedMotion();
  const [shown, setShown] = useState(instant ? text.length : 0);
  useEffect(() => {
    if (instant) return;
    const timer = window.setInterval(() => {
      setShown((n) => Math.min(n + 1, text.length));
    }, REVEAL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [instant, text]);
  const done = instant || shown >= text.length;
  useEffect(() => {
    if (typing && done) onDone();
  }, [typing, done, onDone]);
  return instant ? text.length : shown;
}
