import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import type { PlaceFeature } from '../../api/configurations';
import { baseMapColours, FIT_MAX_ZOOM, widgetMap } from '../../lib/baseMap';

/** A place's stored outline on the inbox's map setup, zoomed to fit it. */
export function PlaceMap({ feature, label, height = 220 }: { feature: PlaceFeature; label: string; height?: number }) {
  const theme = useTheme();
  const container = useRef<HTMLDivElement>(null);
  const mode = theme.palette.mode;
  const { sea } = baseMapColours(mode);

  useEffect(() => {
    if (!container.current) return;
    const { map, remove } = widgetMap(container.current, mode);
    const color = theme.palette.primary.main;
    const outline = L.geoJSON(feature as unknown as GeoJSON.Feature, {
      style: { color, weight: 2, fillColor: color, fillOpacity: 0.18 },
      pointToLayer: (_point, latlng) => L.circleMarker(latlng, { radius: 7, color, fillOpacity: 0.6 }),
    });
    const bounds = outline.getBounds();
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: FIT_MAX_ZOOM });
    outline.addTo(map);
    // At a region's zoom a city's box is a few pixels: a marker at its centre keeps it in sight.
    if (bounds.isValid()) L.circleMarker(bounds.getCenter(), { radius: 6, color, fillOpacity: 0.9 }).addTo(map);
    return remove;
  }, [feature, mode, theme.palette.primary.main]);

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
