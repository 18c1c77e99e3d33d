import { describe, expect, it } from 'vitest';
import { areaCentre, crossesDateLine, polygonWkt, rectangleWkt, wktRings } from './wkt';

describe('WKT areas', () => {
  it('writes a rectangle from any two corners as a closed polygon in lon lat order', () => {
    expect(rectangleWkt({ lat: 45.8, lon: 4.9 }, { lat: 45.7, lon: 4.7 })).toBe(
      'POLYGON((4.7 45.7,4.9 45.7,4.9 45.8,4.7 45.8,4.7 45.7))',
    );
  });

  it('reads back what it writes, and multipolygons ring by ring', () => {
    const points = [
      { lat: 1, lon: 2 },
      { lat: 3, lon: 4 },
      { lat: 5, lon: 2 },
    ];
    expect(wktRings(polygonWkt(points))?.[0]?.slice(0, 3)).toEqual(points);
    expect(wktRings('MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5)))')).toHaveLength(2);
  });

  it('refuses what is not a polygon', () => {
    expect(wktRings('POINT(1 2)')).toBeNull();
    expect(wktRings('POLYGON((1 2,3))')).toBeNull();
    expect(wktRings('POLYGON((a b,1 2,3 4))')).toBeNull();
  });

  it.each([
    ['a drawn box across 180°', 'POLYGON((170 -20,-170 -20,-170 -10,170 -10,170 -20))', true],
    [
      'a box split at 180° on both sides',
      'MULTIPOLYGON(((177 -19,180 -19,180 -16,177 -16,177 -19)),((-180 -19,-179 -19,-179 -16,-180 -16,-180 -19)))',
      true,
    ],
    ['a box touching 180° on one side only', 'POLYGON((170 0,180 0,180 5,170 5,170 0))', false],
    ['a box far from it', 'POLYGON((2.2 48.8,2.5 48.8,2.5 48.95,2.2 48.95,2.2 48.8))', false],
    ['no area', '', false],
  ])('tells whether %s crosses the date line', (_name, wkt, crosses) => {
    expect(crossesDateLine(wkt)).toBe(crosses);
  });

  it.each([
    { wkt: 'POLYGON((4.8 45.7,4.9 45.7,4.9 45.8,4.8 45.8,4.8 45.7))', want: { lat: 45.75, lon: 4.85 } },
    { wkt: 'POLYGON((170 -20,-170 -20,-170 -10,170 -10,170 -20))', want: { lat: -15, lon: 180 } },
    { wkt: 'POLYGON((175 -20,-165 -20,-165 -10,175 -10,175 -20))', want: { lat: -15, lon: -175 } },
    { wkt: 'POINT(4 45)', want: null },
  ])('finds the centre of $wkt', ({ wkt, want }) => {
    const got = areaCentre(wkt);
    if (want === null) expect(got).toBeNull();
    else {
      expect(got!.lat).toBeCloseTo(want.lat, 6);
      expect(got!.lon).toBeCloseTo(want.lon, 6);
    }
  });
});
