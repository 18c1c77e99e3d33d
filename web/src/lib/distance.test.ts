import { describe, expect, it } from 'vitest';
import type { PlaceFeature } from '../api/configurations';
import { defaultRadiusMeters, formatDistance, metersOfKm } from './distance';

describe('formatDistance', () => {
  it.each([
    [250, '250 m'],
    [999.6, '1000 m'],
    [1000, '1 km'],
    [1540, '1.5 km'],
    [12_400, '12 km'],
    [500_000, '500 km'],
  ])('%d m reads %s', (meters, text) => expect(formatDistance(meters)).toBe(text));
});

describe('metersOfKm', () => {
  it.each([
    ['2.5', 2500],
    [' 0,3 ', 300],
    ['', undefined],
    ['wide', undefined],
  ])('%j km is %j m', (text, meters) => expect(metersOfKm(text)).toBe(meters));
});

describe('defaultRadiusMeters', () => {
  it('is the distance from the middle of the bounds to a corner', () => {
    const square: PlaceFeature = {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-0.5, -0.5],
            [0.5, -0.5],
            [0.5, 0.5],
            [-0.5, 0.5],
            [-0.5, -0.5],
          ],
        ],
      },
    };
    // The server's figure for the same box is 78.6 km.
    expect(defaultRadiusMeters(square)).toBeGreaterThan(78_000);
    expect(defaultRadiusMeters(square)).toBeLessThan(79_200);
  });
});
