import L from 'leaflet';
import type { MapBase } from '../api/map';
import { loadWorldShapes } from './worldShapes';

/** The offline country outlines: the base map when the server offers none finer, or cannot say. */
export const OUTLINES: MapBase = {
  kind: 'outlines',
  url: '',
  attribution: '',
  maxZoom: 6,
  bounds: [-180, -85, 180, 85],
};

/**
 * How far in a map may zoom to fit a place: street level over tiles (no closer than 16, where a
 * block fills the view), but no closer than a region over the outlines, which show only borders.
 */
export function fitMaxZoom(base: MapBase): number {
  return Math.min(base.maxZoom, 16);
}

// The outlines' own pane, under the tiles (200) and everything drawn on the map.
const OUTLINES_PANE = 'outlines';

/** The offline base map's colours for the theme's mode. */
export function baseMapColours(mode: 'light' | 'dark') {
  return mode === 'light'
    ? { land: '#dfe5ef', border: '#b8c2d3', sea: '#f5f8fc' }
    : { land: '#253041', border: '#3a475c', sea: '#0f141c' };
}

/** Leaflet writes attributions as HTML; the operator's is plain text. */
function asText(text: string): string | undefined {
  if (text === '') return undefined; // the library's own
  const div = document.createElement('div');
  div.textContent = text;
  return div.innerHTML;
}

/**
 * The layer that draws base: a tile server's pictures, vector tiles or a PMTiles archive drawn in
 * the browser (the drawing libraries load only when needed), or the country outlines.
 */
export async function baseLayer(base: MapBase, mode: 'light' | 'dark'): Promise<L.Layer> {
  const [west = -180, south = -85, east = 180, north = 85] = base.bounds;
  const bounds = L.latLngBounds([south, west], [north, east]);
  const attribution = asText(base.attribution);
  switch (base.kind) {
    case 'raster':
      return L.tileLayer(base.url, { attribution, maxNativeZoom: base.maxZoom, maxZoom: 19 });
    case 'vector':
    case 'pmtiles-vector': {
      const { leafletLayer } = await import('protomaps-leaflet');
      // The Protomaps basemap's own light and dark styles; deeper than the data, it draws larger.
      const layer = leafletLayer({
        url: base.url,
        flavor: mode,
        lang: 'en',
        attribution,
        bounds,
        maxDataZoom: base.maxZoom,
      });
      return layer as unknown as L.GridLayer; // a class built on L.GridLayer, typed loosely
    }
    case 'pmtiles-raster': {
      const { PMTiles, leafletRasterLayer } = await import('pmtiles');
      const layer = leafletRasterLayer(new PMTiles(base.url), {
        attribution,
        bounds,
        maxNativeZoom: base.maxZoom,
        maxZoom: 19,
      });
      // Its tiles are decoration, as Leaflet's own tile layer marks them (the reader's do not).
      layer.on('tileloadstart', ({ tile }: L.TileEvent) => {
        tile.alt = '';
        tile.setAttribute('role', 'presentation');
      });
      return layer;
    }
    case 'outlines': {
      const { land, border } = baseMapColours(mode);
      return L.geoJSON(await loadWorldShapes(), {
        style: { color: border, weight: 0.6, fillColor: land, fillOpacity: 1 },
        interactive: false,
        attribution: 'Natural Earth',
        pane: OUTLINES_PANE,
      });
    }
  }
}

// The hint is given once a page load, not on every map or every zoom.
let streetLevelHintGiven = false;

/** Forgets that the hint was given, so each test starts afresh. */
export function resetStreetLevelHint(): void {
  streetLevelHintGiven = false;
}

/**
 * Over the outlines, the first time someone zooms in past them, a small note in the map's corner
 * says how street level is had; it closes with its button or by itself.
 */
function hintStreetLevel(map: L.Map, base: MapBase): void {
  const onZoom = () => {
    if (streetLevelHintGiven || map.getZoom() <= base.maxZoom) return;
    streetLevelHintGiven = true;
    map.off('zoomend', onZoom);
    const note = new L.Control({ position: 'bottomleft' });
    note.onAdd = () => {
      const box = L.DomUtil.create('div', 'leaflet-bar');
      box.setAttribute('role', 'status');
      Object.assign(box.style, {
        background: 'white',
        color: '#333',
        padding: '4px 8px',
        maxWidth: '22em',
        font: '12px sans-serif',
      });
      const text = L.DomUtil.create('span', '', box);
      text.textContent =
        'This map has country outlines only. For street level, the server needs --map-tiles-url or --map-pmtiles (docs/maps.md).';
      const close = L.DomUtil.create('button', '', box);
      close.type = 'button';
      close.textContent = '×';
      close.setAttribute('aria-label', 'Close the note');
      Object.assign(close.style, { marginLeft: '6px', border: 'none', background: 'none', cursor: 'pointer' });
      L.DomEvent.disableClickPropagation(box);
      L.DomEvent.on(close, 'click', () => note.remove());
      return box;
    };
    note.addTo(map);
    setTimeout(() => note.remove(), 15_000);
  };
  map.on('zoomend', onZoom);
}

/** Whether the tiles reach the whole world; a region's archive leaves the rest to the outlines. */
function coversWorld(base: MapBase): boolean {
  const [west = -180, south = -85, east = 180, north = 85] = base.bounds;
  return west <= -179 && south <= -84 && east >= 179 && north >= 84;
}

/**
 * Puts base under map once its layer is ready, with the outlines under tiles that cover only a
 * region. Returns a function that drops a load still in flight (call it before map.remove()).
 */
export function addBaseLayer(map: L.Map, mode: 'light' | 'dark', base: MapBase): () => void {
  if (!map.getPane(OUTLINES_PANE)) map.createPane(OUTLINES_PANE).style.zIndex = '150';
  let cancelled = false;
  const bases = base.kind === 'outlines' || coversWorld(base) ? [base] : [OUTLINES, base];
  for (const b of bases) {
    void baseLayer(b, mode).then((layer) => {
      if (!cancelled) layer.addTo(map);
    });
  }
  if (base.kind === 'outlines') hintStreetLevel(map, base);
  return () => {
    cancelled = true;
  };
}

/**
 * A small map for a widget (no attribution line) with its base layer, over the whole world until
 * the caller fits it. Returns the map and what removes it. A widget map is a picture with a text
 * alternative (role="img", the list beside it for keyboards), so nothing in it takes focus: no
 * zoom buttons and no keyboard handler; the mouse still pans and zooms it.
 */
export function widgetMap(
  container: HTMLElement,
  mode: 'light' | 'dark',
  base: MapBase,
): { map: L.Map; remove: () => void } {
  const map = L.map(container, {
    worldCopyJump: true,
    minZoom: 1,
    zoomSnap: 0.5,
    attributionControl: false,
    zoomControl: false,
    keyboard: false,
  });
  map.setView([20, 0], 1);
  const stopBaseLayer = addBaseLayer(map, mode, base);
  return {
    map,
    remove: () => {
      stopBaseLayer();
      removeMap(map);
    },
  };
}

/**
 * A full, interactive map (zoom controls and attribution) with its base layer, over the whole
 * world. Returns the map and what removes it.
 */
export function searchMap(
  container: HTMLElement,
  mode: 'light' | 'dark',
  base: MapBase,
): { map: L.Map; remove: () => void } {
  const map = L.map(container, { worldCopyJump: true, minZoom: 1, zoomSnap: 0.5 }).setView([20, 0], 2);
  const stopBaseLayer = addBaseLayer(map, mode, base);
  return {
    map,
    remove: () => {
      stopBaseLayer();
      removeMap(map);
    },
  };
}

/**
 * Removes a map, ending a zoom animation first. Leaflet 1.9 ends an animated zoom (an area
 * fitted into view, a turn of the wheel) on a 250 ms timer that moves the map's panes; on a map
 * removed meanwhile they are gone, and the timer throws "Cannot read properties of undefined
 * (reading '_leaflet_pos')". Locate met it with every area drawn: the drawn area is fitted into
 * view, and the search it starts draws a new screen, removing that map mid-zoom.
 */
function removeMap(map: L.Map) {
  // Leaflet has no call to stop a zoom; its timer does nothing once this flag is down.
  (map as L.Map & { _animatingZoom?: boolean })._animatingZoom = false;
  map.remove();
}
