import L from 'leaflet';
import { loadWorldShapes } from './worldShapes';

/** A tile server's URL template, set at build time; without one the map draws its own offline outlines. */
const TILE_URL: string | undefined = import.meta.env.VITE_MAP_TILE_URL;
const TILE_ATTRIBUTION: string = import.meta.env.VITE_MAP_TILE_ATTRIBUTION ?? '';

/**
 * How far in a map may zoom to fit a place: street level over tiles, but no closer than a
 * region over the offline outlines, which show nothing finer than borders.
 */
export const FIT_MAX_ZOOM = TILE_URL ? 14 : 6;

/** The offline base map's colours for the theme's mode. */
export function baseMapColours(mode: 'light' | 'dark') {
  return mode === 'light'
    ? { land: '#dfe5ef', border: '#b8c2d3', sea: '#f5f8fc' }
    : { land: '#253041', border: '#3a475c', sea: '#0f141c' };
}

/**
 * Puts the base layer under map: the configured tiles, else the country outlines, loaded on first
 * use. Returns a function that drops an outline load still in flight (call it before map.remove()).
 */
export function addBaseLayer(map: L.Map, mode: 'light' | 'dark'): () => void {
  if (TILE_URL) {
    L.tileLayer(TILE_URL, { attribution: TILE_ATTRIBUTION }).addTo(map);
    return () => {};
  }
  const { land, border } = baseMapColours(mode);
  let cancelled = false;
  void loadWorldShapes().then((shapes) => {
    if (cancelled) return;
    L.geoJSON(shapes, {
      style: { color: border, weight: 0.6, fillColor: land, fillOpacity: 1 },
      interactive: false,
      attribution: 'Natural Earth',
    })
      .addTo(map)
      .bringToBack();
  });
  return () => {
    cancelled = true;
  };
}

/**
 * A small map for a widget (no attribution line) with its base layer, over the whole world until
 * the caller fits it. Returns the map and what removes it.
 */
export function widgetMap(container: HTMLElement, mode: 'light' | 'dark'): { map: L.Map; remove: () => void } {
  const map = L.map(container, { worldCopyJump: true, minZoom: 1, zoomSnap: 0.5, attributionControl: false });
  map.setView([20, 0], 1);
  const stopBaseLayer = addBaseLayer(map, mode);
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
export function searchMap(container: HTMLElement, mode: 'light' | 'dark'): { map: L.Map; remove: () => void } {
  const map = L.map(container, { worldCopyJump: true, minZoom: 1, zoomSnap: 0.5 }).setView([20, 0], 2);
  const stopBaseLayer = addBaseLayer(map, mode);
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
