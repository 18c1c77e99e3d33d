/**
 * Whether url is an absolute http or https address: the only kind of address from content that
 * Sightline opens or loads. javascript:, data: and relative addresses could act on the analyst.
 */
export function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Opens url in a new tab if it is an http or https address; nothing else is ever opened. */
export function openInNewTab(url: string) {
  if (!isWebUrl(url)) return;
  window.open(url, '_blank', 'noopener,noreferrer');
}
