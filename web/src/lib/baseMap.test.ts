import L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MapBase } from '../api/map';
import { baseLayer, fitMaxZoom, OUTLINES, resetStreetLevelHint, searchMap } from './baseMap';

const world = [-180, -85, 180, 85];

describe('baseLayer', () => {
  it('draws a raster tile server with Leaflet, its attribution as text', async () => {
    const base: MapBase = {
      kind: 'raster',
      url: 'https://tiles.example/{z}/{x}/{y}.png',
      attribution: '© <OSM> & friends',
      maxZoom: 18,
      bounds: world,
    };
    const layer = await baseLayer(base, 'light');
    expect(layer).toBeInstanceOf(L.TileLayer);
    expect((layer as unknown as { _url: string })._url).toBe(base.url);
    expect((layer as L.TileLayer).getAttribution?.()).toBe('© &lt;OSM&gt; &amp; friends');
  });

  it.each<[MapBase['kind'], string]>([
    ['vector', 'https://tiles.example/{z}/{x}/{y}.mvt'],
    ['pmtiles-vector', '/api/v1/map/base.pmtiles'],
  ])('draws %s tiles in the browser in the theme’s flavour', async (kind, url) => {
    const layer = await baseLayer({ kind, url, attribution: '', maxZoom: 15, bounds: world }, 'dark');
    expect(layer).toBeInstanceOf(L.GridLayer);
    expect(layer).not.toBeInstanceOf(L.TileLayer);
    const options = (layer as L.GridLayer).options as { url?: string; flavor?: string; attribution?: string };
    expect(options).toMatchObject({ url, flavor: 'dark' });
    expect(options.attribution).toContain('OpenStreetMap'); // the library's own when the operator gives none
  });

  it('draws a raster PMTiles archive from Sightline, within its bounds', async () => {
    const layer = await baseLayer(
      {
        kind: 'pmtiles-raster',
        url: '/api/v1/map/base.pmtiles',
        attribution: 'swisstopo',
        maxZoom: 12,
        bounds: [5.9, 45.8, 10.5, 47.8],
      },
      'light',
    );
    expect(layer).toBeInstanceOf(L.GridLayer);
    expect(layer).not.toBeInstanceOf(L.TileLayer);
    const options = (layer as L.GridLayer).options as L.GridLayerOptions;
    expect(options).not.toHaveProperty('flavor');
    expect(options).toMatchObject({ attribution: 'swisstopo', maxNativeZoom: 12 });
    expect(options.bounds).toEqual(L.latLngBounds([45.8, 5.9], [47.8, 10.5]));
  });

  it('draws the outlines without tiles', async () => {
    const layer = await baseLayer(OUTLINES, 'light');
    expect(layer).toBeInstanceOf(L.GeoJSON);
  });
});

describe('addBaseLayer', () => {
  const region: MapBase = {
    kind: 'pmtiles-raster',
    url: '/api/v1/map/base.pmtiles',
    attribution: '',
    maxZoom: 12,
    bounds: [5.9, 45.8, 10.5, 47.8],
  };
  const drawn = (map: L.Map) => {
    const layers: string[] = [];
    map.eachLayer((layer) => {
      if (layer instanceof L.GeoJSON) layers.push(`outlines in ${layer.options.pane}`);
      else if (layer instanceof L.GridLayer) layers.push('tiles');
    });
    return layers.sort();
  };
  // The archive's reader asks for its header; the answer is not what these tests are about.
  beforeEach(() =>
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    ),
  );
  afterEach(() => vi.unstubAllGlobals());

  it.each<[string, MapBase, string[]]>([
    ['a region’s archive over the outlines', region, ['outlines in outlines', 'tiles']],
    ['a world’s tiles alone', { ...region, bounds: world }, ['tiles']],
    ['the outlines alone', OUTLINES, ['outlines in outlines']],
  ])('draws %s', async (_name, base, want) => {
    const container = document.createElement('div');
    document.body.append(container);
    const { map, remove } = searchMap(container, 'light', base);
    await vi.waitFor(() => expect(drawn(map)).toEqual(want));
    expect(map.getPane('outlines')?.style.zIndex).toBe('150'); // under the tiles' 200
    remove();
    container.remove();
  });
});

describe('fitMaxZoom', () => {
  it('fits to a region over the outlines and to streets over tiles', () => {
    expect(fitMaxZoom(OUTLINES)).toBe(6);
    expect(fitMaxZoom({ ...OUTLINES, kind: 'vector', maxZoom: 15 })).toBe(15);
    expect(fitMaxZoom({ ...OUTLINES, kind: 'raster', maxZoom: 18 })).toBe(16);
    expect(fitMaxZoom({ ...OUTLINES, kind: 'pmtiles-raster', maxZoom: 10 })).toBe(10);
  });
});

describe('the street-level hint', () => {
  let container: HTMLDivElement;
  beforeEach(() => {
    resetStreetLevelHint();
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => container.remove());

  const hint = () => container.querySelector('[role="status"]');

  it('says once, past the outlines, how street level is had', () => {
    const { map, remove } = searchMap(container, 'light', OUTLINES);
    map.setZoom(5, { animate: false });
    expect(hint()).toBeNull();
    map.setZoom(8, { animate: false });
    expect(hint()?.textContent).toContain('--map-tiles-url or --map-pmtiles');
    (container.querySelector('button[aria-label="Close the note"]') as HTMLButtonElement).click();
    expect(hint()).toBeNull();
    map.setZoom(4, { animate: false });
    map.setZoom(9, { animate: false });
    expect(hint()).toBeNull();
    remove();
  });

  it('is not given over tiles', () => {
    const fetch = vi.fn(() => new Promise<Response>(() => undefined));
    vi.stubGlobal('fetch', fetch);
    const { map, remove } = searchMap(container, 'light', {
      kind: 'raster',
      url: 'https://tiles.example/{z}/{x}/{y}.png',
      attribution: '',
      maxZoom: 18,
      bounds: world,
    });
    map.setZoom(12, { animate: false });
    expect(hint()).toBeNull();
    remove();
    vi.unstubAllGlobals();
  });
});
