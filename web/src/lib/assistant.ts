// The assistant drawer's rules and constants (search-side.md sections 3, 4 and 9).
import type { AssistantSource } from '../api/assistant';

/** The answer shown when there is none, or on any error (section 8); the server says the same. */
export const APOLOGY = 'Sorry, the documents contain no information about this. Try asking in other words.';

/** A loading bubble appears only when the answer takes longer than this. */
export const LOADING_DELAY_MS = 300;
/** The answer is revealed a character at a time, this often. */
export const REVEAL_INTERVAL_MS = 8;
/** Autoscroll runs at most this often, and not when the user scrolled up more than the threshold. */
export const SCROLL_THROTTLE_MS = 300;
export const SCROLL_THRESHOLD_PX = 100;
/** Source text longer than this is cut, with Show more. */
export const SOURCE_PREVIEW_CHARS = 280;
export const SESSION_STORAGE_KEY = 'sightline.assistant.sessionId';

/** Nine example prompts over the spec's themes; three random ones show while the conversation is empty. */
export const EXAMPLE_PROMPTS = [
  'What are the main social media trends of the last week?',
  'Which topics gained the most attention on social media this week?',
  'What cybersecurity threats to banks are being discussed?',
  'Are there reports of ransomware or data leaks affecting financial institutions?',
  'Are there signs of a disinformation campaign in recent posts?',
  'Which accounts are pushing the same narrative in coordinated posts?',
  'How is misinformation about recent events spreading?',
  'What false claims about the news are being shared, and where?',
  'What are people saying about protests and strikes this week?',
];

/** n distinct prompts of the nine, chosen with random (Math.random by default). */
export function pickPrompts(n = 3, random: () => number = Math.random): string[] {
  const pool = [...EXAMPLE_PROMPTS];
  const out: string[] = [];
  while (out.length < n && pool.length > 0) {
    out.push(...pool.splice(Math.floor(random() * pool.length), 1));
  }
  return out;
}

/** A source needs created_at, text and provider to be shown (section 3). */
export function isValidSource(source: AssistantSource): boolean {
  return Boolean(source.created_at && (source.text || source.title_text) && source.provider);
}

/** The source's author: the name, falling back to the screen name. */
export function sourceAuthor(source: AssistantSource): string {
  return source.author_name || source.author_screen_name || 'Unknown author';
}

/** The first letters of the first two words of a name. */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

/** A message's time: weekday, month, day, time ("Tue, Nov 24, 3:05 PM"). */
export function formatMessageTime(date: Date): string {
  return date.toLocaleString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** The session id of this browser tab's conversation, made when there is none. */
export function sessionId(storage: Storage = window.sessionStorage): string {
  const held = storage.getItem(SESSION_STORAGE_KEY);
  if (held) return held;
  return newSessionId(storage);
}

/** Starts a new conversation: a new id, kept for the tab's session. */
export function newSessionId(storage: Storage = window.sessionStorage): string {
  // randomUUID exists only in secure contexts; an app served over plain http on a LAN has not.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  storage.setItem(SESSION_STORAGE_KEY, id);
  return id;
}

/** An answer's text in pieces: plain text and citation numbers (1-based). */
export type AnswerPiece = { text: string } | { cite: number };

export function answerPieces(text: string): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    if (match.index > last) pieces.push({ text: text.slice(last, match.index) });
    pieces.push({ cite: Number(match[1]) });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}
