import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import type { Post, Provider } from '../../api/monitor';
import { useMapBase } from '../../hooks/useMapBase';
import { baseMapColours, fitMaxZoom, searchMap } from '../../lib/baseMap';
import { postPoint } from '../../lib/matchPoint';
import { postPopup } from '../../lib/postPopup';
import { type LatLon, polygonWkt, rectangleWkt, wktRings } from '../../lib/wkt';

export type DrawMode = 'rectangle' | 'polygon' | null;

const toLatLng = (p: LatLon): L.LatLngTuple => [p.lat, p.lon];
const fromLatLng = (p: L.LatLng): LatLon => ({ lat: p.lat, lon: L.Util.wrapNum(p.lng, [-180, 180], true) });

/**
 * Locate's map: the searched area, the results as markers (a hovered result grows, a clicked
 * marker selects its result), and drawing a new area, a rectangle by dragging or a polygon by
 * clicking its corners and double-clicking the last one.
 */
export function LocateMap({
  area,
  posts,
  providers,
  highlighted,
  onSelect,
  drawMode,
  onDrawn,
}: {
  /** WKT of the searched area; empty for none. */
  area: string;
  posts: Post[];
  providers: Map<string, Provider>;
  highlighted: string | null;
  onSelect: (postId: string) => void;
  drawMode: DrawMode;
  onDrawn: (wkt: string) => void;
}) {
  const theme = useTheme();
  const mode = theme.palette.mode;
  const { sea } = baseMapColours(mode);
  const base = useMapBase();
  const color = theme.palette.primary.main;
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const areaLayer = useRef<L.LayerGroup | null>(null);
  const markerLayer = useRef<L.LayerGroup | null>(null);
  const markers = useRef(new Map<string, L.CircleMarker>());
  const selected = useRef(onSelect);
  const drawn = useRef(onDrawn);
  useEffect(() => {
    selected.current = onSelect;
    drawn.current = onDrawn;
  }, [onSelect, onDrawn]);

  const located = useMemo(
    () =>
      posts.flatMap((post) => {
        const point = postPoint(post);
        return point ? [{ post, point }] : [];
      }),
    [posts],
  );

  useEffect(() => {
    if (!container.current || !base) return;
    const { map: created, remove } = searchMap(container.current, mode, base);
    map.current = created;
    areaLayer.current = L.layerGroup().addTo(created);
    markerLayer.current = L.layerGroup().addTo(created);
    return () => {
      remove();
      map.current = null;
    };
  }, [mode, base]);

  // The searched area, fitted into view when it changes.
  useEffect(() => {
    const layer = areaLayer.current;
    if (!layer || !map.current || !base) return;
    layer.clearLayers();
    const rings = area ? wktRings(area) : null;
    if (!rings) return;
    const polygon = L.polygon(
      rings.map((ring) => ring.map(toLatLng)),
      { color, weight: 2, fillColor: color, fillOpacity: 0.08, interactive: false },
    ).addTo(layer);
    const bounds = polygon.getBounds();
    map.current.fitBounds(bounds, { padding: [24, 24], maxZoom: fitMaxZoom(base) });
    // A city at a region's zoom is a few pixels: a ring around it keeps it in sight.
    const zoom = Math.min(map.current.getBoundsZoom(bounds), fitMaxZoom(base));
    const size = map.current
      .project(bounds.getNorthEast(), zoom)
      .subtract(map.current.project(bounds.getSouthWest(), zoom));
    if (Math.abs(size.x) < 16 && Math.abs(size.y) < 16) {
      L.circleMarker(bounds.getCenter(), {
        radius: 12,
        color,
        weight: 2,
        dashArray: '4 3',
        fill: false,
        interactive: false,
      }).addTo(layer);
    }
  }, [area, color, mode, base]);

  useEffect(() => {
    const layer = markerLayer.current;
    if (!layer) return;
    layer.clearLayers();
    markers.current.clear();
    for (const { post, point } of located) {
      const provider = providers.get(post.provider);
      const marker = L.circleMarker([point.lat, point.lon], {
        radius: 7,
        color: '#ffffff',
        weight: 1.5,
        fillColor: provider?.color ?? color,
        fillOpacity: point.exact ? 0.95 : 0.6,
        className: 'locate-marker',
      })
        .bindTooltip(postPopup(post, provider), { direction: 'top' })
        .on('click', () => selected.current(post.id));
      marker.addTo(layer);
      markers.current.set(post.id, marker);
    }
  }, [located, providers, color, mode, base]);

  useEffect(() => {
    for (const [id, marker] of markers.current) {
      marker.setRadius(id === highlighted ? 11 : 7);
      marker.setStyle({ weight: id === highlighted ? 3 : 1.5 });
      if (id === highlighted) marker.bringToFront();
    }
  }, [highlighted, located, base]);

  // Drawing: the map stops panning while a shape is drawn.
  useEffect(() => {
    const m = map.current;
    const element = container.current;
    if (!m || !element || !drawMode) return;
    const sketch = L.layerGroup().addTo(m);
    const style = { color, weight: 2, dashArray: '6 4', fillOpacity: 0.1, interactive: false };
    m.dragging.disable();
    m.doubleClickZoom.disable();
    element.style.setProperty('cursor', 'crosshair');
    let start: L.LatLng | null = null;
    let rectangle: L.Rectangle | null = null;
    const corners: L.LatLng[] = [];
    let outline: L.Polyline | null = null;

    const down = (e: L.LeafletMouseEvent) => {
      if (drawMode !== 'rectangle') return;
      start = e.latlng;
      rectangle = L.rectangle(L.latLngBounds(start, start), style).addTo(sketch);
    };
    const move = (e: L.LeafletMouseEvent) => {
      if (drawMode === 'rectangle' && start && rectangle) rectangle.setBounds(L.latLngBounds(start, e.latlng));
      if (drawMode === 'polygon' && outline) outline.setLatLngs([...corners, e.latlng]);
    };
    const up = (e: L.LeafletMouseEvent) => {
      if (drawMode !== 'rectangle' || !start) return;
      const a = fromLatLng(start);
      const b = fromLatLng(e.latlng);
      start = null;
      if (Math.abs(a.lat - b.lat) > 1e-4 && Math.abs(a.lon - b.lon) > 1e-4) drawn.current(rectangleWkt(a, b));
    };
    const click = (e: L.LeafletMouseEvent) => {
      if (drawMode !== 'polygon') return;
      corners.push(e.latlng);
      outline ??= L.polyline([], style).addTo(sketch);
      outline.setLatLngs(corners);
    };
    const finish = () => {
      if (drawMode !== 'polygon') return;
      // The double click's own clicks added its point twice.
      const points = corners.filter((p, i) => i === 0 || !p.equals(corners[i - 1]!));
      if (points.length >= 3) drawn.current(polygonWkt(points.map(fromLatLng)));
    };
    m.on('mousedown', down).on('mousemove', move).on('mouseup', up).on('click', click).on('dblclick', finish);
    return () => {
      m.off('mousedown', down).off('mousemove', move).off('mouseup', up).off('click', click).off('dblclick', finish);
      sketch.remove();
      m.dragging.enable();
      m.doubleClickZoom.enable();
      element.style.removeProperty('cursor');
    };
  }, [drawMode, color, base]);

  return (
    <Box
      ref={container}
      role="region"
      aria-label={`Map of results: ${located.length} of ${posts.length} loaded results have a place`}
      data-drawing={drawMode ?? undefined}
      sx={{
        height: '100%',
        minHeight: 360,
        borderRadius: 2,
        border: 1,
        borderColor: 'divider',
        '& .leaflet-container': { bgcolor: sea },
      }}
      style={{ background: sea }}
    />
  );
}
