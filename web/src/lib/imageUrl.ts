// Pictures of posts load through the server's image proxy (/proxy/images/ or
// /proxy/images/{width}x/), so the analyst's browser never contacts the site that hosts them.
// Sightline's own media assets and same-origin paths are loaded directly.

const MEDIA_ASSETS_PATH = '/api/v4/media/assets';

/** The address the page should load picture from, at most width pixels wide when given. */
export function proxiedImageUrl(picture: string, width?: number, origin: string = window.location.origin): string {
  let url: URL;
  try {
    url = new URL(picture, origin);
  } catch {
    return picture;
  }
  if (url.origin === origin || url.pathname.startsWith(MEDIA_ASSETS_PATH)) return picture;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return picture;
  const size = width ? `${width}x/` : '';
  return `/proxy/images/${size}${encodeURIComponent(url.href)}`;
}
