// Areas as the search API takes them: WKT polygons in lon lat order.

export interface LatLon {
  lat: number;
  lon: number;
}

/** A closed WKT polygon of the points, in order. */
export function polygonWkt(points: LatLon[]): string {
  const ring = [...points, points[0]!].map((p) => `${round(p.lon)} ${round(p.lat)}`);
  return `POLYGON((${ring.join(',')}))`;
}

/** The rectangle between two corners as a WKT polygon. */
export function rectangleWkt(a: LatLon, b: LatLon): string {
  const [south, north] = [Math.min(a.lat, b.lat), Math.max(a.lat, b.lat)];
  const [west, east] = [Math.min(a.lon, b.lon), Math.max(a.lon, b.lon)];
  return polygonWkt([
    { lat: south, lon: west },
    { lat: south, lon: east },
    { lat: north, lon: east },
    { lat: north, lon: west },
  ]);
}

function round(n: number): number {
  return Math.round(n * 1e5) / 1e5;
}

/** The outer rings of a WKT POLYGON or MULTIPOLYGON, as points; null for anything else. */
export function wktRings(wkt: string): LatLon[][] | null {
  const text = wkt.trim().toUpperCase();
  if (!text.startsWith('POLYGON') && !text.startsWith('MULTIPOLYGON')) return null;
  const rings: LatLon[][] = [];
  // Each innermost parenthesised run of coordinates is a ring; holes are drawn as rings too,
  // which only outlines them.
  for (const match of text.matchAll(/\(([^()]+)\)/g)) {
    const ring: LatLon[] = [];
    for (const pair of match[1]!.split(',')) {
      const [lon, lat] = pair.trim().split(/\s+/).map(Number);
      if (lon === undefined || lat === undefined || !Number.isFinite(lon) || !Number.isFinite(lat)) return null;
      ring.push({ lat, lon });
    }
    if (ring.length < 3) return null;
    rings.push(ring);
  }
  return rings.length > 0 ? rings : null;
}

/**
 * Whether a WKT area crosses the date line (180° longitude): a ring steps more than 180° in
 * longitude (drawn across it, the short way round), or the area has parts touching it on both
 * sides (split at it, as the geocoder splits boxes and country shapes).
 */
export function crossesDateLine(wkt: string): boolean {
  const rings = wktRings(wkt);
  if (!rings) return false;
  const points = rings.flat();
  const jumps = rings.some((ring) => ring.some((p, i) => i > 0 && Math.abs(p.lon - ring[i - 1]!.lon) > 180));
  return jumps || (points.some((p) => p.lon === 180) && points.some((p) => p.lon === -180));
}

/**
 * The centre of a WKT area's box, for naming it; null for anything that is not an area. An area
 * across the date line is taken the short way round.
 */
export function areaCentre(wkt: string): LatLon | null {
  const rings = wktRings(wkt);
  if (!rings) return null;
  const points = rings.flat();
  const across = crossesDateLine(wkt);
  const lons = points.map((p) => (across && p.lon < 0 ? p.lon + 360 : p.lon));
  const lats = points.map((p) => p.lat);
  let lon = (Math.min(...lons) + Math.max(...lons)) / 2;
  if (lon > 180) lon -= 360;
  return { lat: (Math.min(...lats) + Math.max(...lats)) / 2, lon };
}
