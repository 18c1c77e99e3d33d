import { describe, expect, it } from 'vitest';
import { loadWorldShapes, unwrapRing } from './worldShapes';

describe('world shapes', () => {
  it('keeps a ring that crosses the antimeridian in one piece', () => {
    expect(
      unwrapRing([
        [178, 0],
        [-179, 1],
        [-178, 0],
        [178, 0],
      ]),
    ).toEqual([
      [178, 0],
      [181, 1],
      [182, 0],
      [178, 0],
    ]);
    expect(
      unwrapRing([
        [10, 0],
        [20, 5],
        [10, 5],
      ]),
    ).toEqual([
      [10, 0],
      [20, 5],
      [10, 5],
    ]);
  });

  it('loads every country with no jump across the map', async () => {
    const world = await loadWorldShapes();
    expect(world.features.length).toBeGreaterThan(150);
    for (const country of world.features) {
      const polygons =
        country.geometry.type === 'Polygon'
          ? [country.geometry.coordinates]
          : country.geometry.type === 'MultiPolygon'
            ? country.geometry.coordinates
            : [];
      for (const ring of polygons.flat()) {
        for (let i = 1; i < ring.length; i++) {
          expect(Math.abs((ring[i]?.[0] ?? 0) - (ring[i - 1]?.[0] ?? 0))).toBeLessThanOrEqual(180);
        }
      }
    }
  });
});
