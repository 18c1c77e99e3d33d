// The address a user pastes into "Capture a web page", checked before it is sent.

/** The server's words for an address it will not fetch (docs/evidence.md). */
export const BAD_URL_MESSAGE = 'The address must be an absolute http or https URL.';

/** Why the typed address cannot be captured, or undefined when it can be sent. */
export function urlProblem(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return 'Enter the address of the page to capture.';
  try {
    const url = new URL(text);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return BAD_URL_MESSAGE;
  } catch {
    return BAD_URL_MESSAGE;
  }
  return undefined;
}
