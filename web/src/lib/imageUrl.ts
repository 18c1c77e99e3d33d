// Pictures of posts load through the server's image proxy (/proxy/images/ or
// /proxy/images/{width}x/), so the analyst's browser never contacts the site that hosts them.
// Only Sightline's own demo media, served from this origin under /demo-media/, load directly:
// the exemption takes the origin and the path together, so https://evil.example/demo-media/x is
// proxied like any other picture.

const DEMO_MEDIA_PATH = '/demo-media/';

/**
 * The address the page should load a picture from, at most width pixels wide when given;
 * undefined when the picture's address is not an http or https one and must not be loaded.
 */
export function proxiedImageUrl(
  picture: string,
  width?: number,
  origin: string = window.location.origin,
): string | undefined {
  let url: URL;
  try {
    url = new URL(picture, origin);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // The parsed address, dot segments resolved, is what the browser would load.
  if (url.origin === origin && url.pathname.startsWith(DEMO_MEDIA_PATH)) return url.href;
  const size = width ? `${width}x/` : '';
  return `/proxy/images/${size}${encodeURIComponent(url.href)}`;
}
