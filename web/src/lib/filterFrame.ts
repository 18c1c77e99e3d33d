// The messages the embedded create-filter page sends the search builder around it
// (monitor-area.md section 2, step 2).

export type FilterFrameMessage =
  { type: 'loaded' } | { type: 'closeModal' } | { type: 'createdFilterList'; id: number };

/** The message in data, or null when it is not one of ours. */
export function readFilterFrameMessage(data: unknown): FilterFrameMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, id } = data as { type?: unknown; id?: unknown };
  if (type === 'loaded' || type === 'closeModal') return { type };
  if (type === 'createdFilterList' && typeof id === 'number' && Number.isInteger(id)) return { type, id };
  return null;
}

/** Tells the page that embeds this one, if any. */
export function postToBuilder(message: FilterFrameMessage): void {
  if (window.parent !== window) window.parent.postMessage(message, window.location.origin);
}
