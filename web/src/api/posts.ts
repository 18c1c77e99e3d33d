// A post's places as the analyst corrects them for their tenant (docs/search-api.md, "A post's
// places").
import type { MentionedLocation } from './contracts.gen';
import { request } from './transport';

export type { MentionedLocation } from './contracts.gen';

function placePath(postId: string, place: MentionedLocation): string {
  return `/api/v1/posts/${encodeURIComponent(postId)}/places/${encodeURIComponent(place.country_code)}/${encodeURIComponent(place.name)}`;
}

/** Takes the place off the post for everyone in the tenant; replies with the places it keeps. */
export async function removePlace(postId: string, place: MentionedLocation) {
  return (await request<{ mentioned_locations: MentionedLocation[] }>('DELETE', placePath(postId, place))).data
    .mentioned_locations;
}

/** Puts a removed place back on the post; replies with the post's places. */
export async function restorePlace(postId: string, place: MentionedLocation) {
  return (await request<{ mentioned_locations: MentionedLocation[] }>('PUT', placePath(postId, place))).data
    .mentioned_locations;
}
