// Tenant announcements (docs/tenant-api.md, "Announcements"): tenant admins publish short notes;
// every user of the tenant reads them from the top bar, with their own read state.
import { request } from './transport';

export interface Announcement {
  id: number;
  title: string;
  body: string;
  author: string;
  /** RFC 3339. */
  created_at: string;
  read: boolean;
}

export interface Announcements {
  announcements: Announcement[];
  unread: number;
}

export const ANNOUNCEMENT_TITLE_MAX = 120;
export const ANNOUNCEMENT_BODY_MAX = 500;

export async function fetchAnnouncements(signal?: AbortSignal): Promise<Announcements> {
  return (await request<Announcements>('GET', '/api/v1/announcements', { signal })).data;
}

/** Marks the given announcements read, or every listed one without ids; answers with the list. */
export async function markAnnouncementsRead(ids?: number[]): Promise<Announcements> {
  return (await request<Announcements>('POST', '/api/v1/announcements/read', { body: ids ? { ids } : {} })).data;
}

export async function publishAnnouncement(draft: { title: string; body: string }): Promise<Announcement> {
  return (await request<Announcement>('POST', '/api/v1/tenant/announcements', { body: draft })).data;
}

export async function deleteAnnouncement(id: number): Promise<void> {
  await request('DELETE', `/api/v1/tenant/announcements/${id}`);
}
