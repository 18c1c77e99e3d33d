import type { FeatureCollection, Geometry, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * Makes a ring continuous across the antimeridian: a step of more than 180° in longitude is
 * taken the short way round (179 then -179 becomes 179 then 181), so a map draws the shape
 * instead of a band across the whole world.
 */
export function unwrapRing(ring: Position[]): Position[] {
  let offset = 0;
  let previous: number | undefined;
  return ring.map(([lon = 0, lat = 0]) => {
    if (previous !== undefined) {
      if (lon + offset - previous > 180) offset -= 360;
      else if (lon + offset - previous < -180) offset += 360;
    }
    previous = lon + offset;
    return [lon + offset, lat];
  });
}

function unwrap(geometry: Geometry): Geometry {
  switch (geometry.type) {
    case 'Polygon':
      return { ...geometry, coordinates: geometry.coordinates.map(unwrapRing) };
    case 'MultiPolygon':
      return { ...geometry, coordinates: geometry.coordinates.map((polygon) => polygon.map(unwrapRing)) };
    default:
      return geometry;
  }
}

/**
 * The world's countries (Natural Earth 1:110m, from the world-atlas package), loaded on first use
 * into their own chunk so only the map view pays for them. Drawn locally, so the map works offline.
 */
export async function loadWorldShapes(): Promise<FeatureCollection> {
  const { default: topology } = (await import('world-atlas/countries-110m.json')) as unknown as {
    default: Topology<{ countries: GeometryCollection }>;
  };
  const countries = feature(topology, topology.objects.countries);
  return { ...countries, features: countries.features.map((f) => ({ ...f, geometry: unwrap(f.geometry) })) };
}
