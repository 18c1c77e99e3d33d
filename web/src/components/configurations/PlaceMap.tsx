import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import type { LatLon, PlaceFeature } from '../../api/configurations';
import { useMapBase } from '../../hooks/useMapBase';
import { baseMapColours, fitMaxZoom, widgetMap } from '../../lib/baseMap';

/** A proximity radius about a point, drawn dashed over the outline. */
export interface RadiusCircle {
  center: LatLon;
  meters: number;
}

/** A place's stored outline (and its proximity radius) on the inbox's map setup, zoomed to fit. */
export function PlaceMap({
  feature,
  label,
  radius,
  height = 220,
}: {
  feature: PlaceFeature;
  label: string;
  radius?: RadiusCircle;
  height?: number;
}) {
  const theme = useTheme();
  const container = useRef<HTMLDivElement>(null);
  const mode = theme.palette.mode;
  const { sea } = baseMapColours(mode);
  const base = useMapBase();
  // The circle's numbers, not the object, decide when to redraw: callers build it each render.
  const [lat, lon, meters] = radius ? [radius.center.lat, radius.center.lon, radius.meters] : [];

  useEffect(() => {
    if (!container.current || !base) return;
    const { map, remove } = widgetMap(container.current, mode, base);
    const color = theme.palette.primary.main;
    const outline = L.geoJSON(feature as unknown as GeoJSON.Feature, {
      style: { color, weight: 2, fillColor: color, fillOpacity: 0.18 },
      pointToLayer: (_point, latlng) => L.circleMarker(latlng, { radius: 7, color, fillOpacity: 0.6 }),
    });
    const bounds = outline.getBounds();
    outline.addTo(map);
    if (lat !== undefined && lon !== undefined && meters !== undefined) {
      const circle = L.circle([lat, lon], {
        radius: meters,
        color,
        weight: 2,
        dashArray: '6 6',
        fill: false,
      }).addTo(map);
      bounds.extend(circle.getBounds());
    }
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: fitMaxZoom(base) });
    // At a region's zoom a city's box is a few pixels: a marker at its centre keeps it in sight.
    if (bounds.isValid()) L.circleMarker(bounds.getCenter(), { radius: 6, color, fillOpacity: 0.9 }).addTo(map);
    return remove;
  }, [feature, lat, lon, meters, mode, theme.palette.primary.main, base]);

  return (
    <Box
      ref={container}
      role="img"
      aria-label={label}
      sx={{ height, borderRadius: 1, border: 1, borderColor: 'divider', '& .leaflet-container': { bgcolor: sea } }}
      style={{ background: sea }}
    />
  );
}
