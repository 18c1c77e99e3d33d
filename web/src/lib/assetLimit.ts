// The organization's asset limit or caps, as a failed request reports them (limitExceeded): the
// Asset Limit Reached dialog shows the server's title and description.

import { ApiError } from '../api/transport';

export interface AssetLimit {
  title: string;
  description: string;
}

/** The limit a failed request reports, or null when it failed for another reason. */
export function assetLimitOf(failure: unknown): AssetLimit | null {
  const reply = failure instanceof ApiError ? failure.body : undefined;
  if (!reply?.limitExceeded) return null;
  return { title: reply.title ?? reply.message, description: reply.description ?? '' };
}
