import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import type { Dashboard } from '../../api/client';
import { loadWorldShapes } from '../../lib/worldShapes';

const TILE_URL: string | undefined = import.meta.env.VITE_MAP_TILE_URL;
const TILE_ATTRIBUTION: string = import.meta.env.VITE_MAP_TILE_ATTRIBUTION ?? '';

/**
 * The most mentioned places as circles sized by their counts, on the inbox's map setup (tiles
 * when configured, else offline outlines). Choosing a circle opens its link; the list beside
 * the map is the way for keyboards and screen readers.
 */
export function PlacesMap({
  places,
  linkOf,
}: {
  places: Dashboard['topMentionedLocations'];
  linkOf: (place: Dashboard['topMentionedLocations'][number]) => string;
}) {
  const theme = useTheme();
  const navigate = useNavigate();
  const container = useRef<HTMLDivElement>(null);
  const land = theme.palette.mode === 'light' ? '#dfe5ef' : '#253041';
  const border = theme.palette.mode === 'light' ? '#b8c2d3' : '#3a475c';
  const sea = theme.palette.mode === 'light' ? '#f5f8fc' : '#0f141c';

  useEffect(() => {
    if (!container.current) return;
    const map = L.map(container.current, { worldCopyJump: true, minZoom: 1, zoomSnap: 0.5, attributionControl: false });
    map.setView([20, 0], 1);
    let cancelled = false;
    if (TILE_URL) {
      L.tileLayer(TILE_URL, { attribution: TILE_ATTRIBUTION }).addTo(map);
    } else {
      void loadWorldShapes().then((shapes) => {
        if (cancelled) return;
        L.geoJSON(shapes, {
          style: { color: border, weight: 0.6, fillColor: land, fillOpacity: 1 },
          interactive: false,
        })
          .addTo(map)
          .bringToBack();
      });
    }
    const max = Math.max(1, ...places.map((p) => p.count));
    for (const place of places) {
      L.circleMarker([place.lat, place.lon], {
        radius: 4 + 10 * Math.sqrt(place.count / max),
        color: '#ffffff',
        weight: 1.5,
        fillColor: theme.palette.primary.main,
        fillOpacity: 0.8,
      })
        .bindTooltip(`${place.name}: ${place.count}`)
        .on('click', () => void navigate(linkOf(place)))
        .addTo(map);
    }
    return () => {
      cancelled = true;
      map.remove();
    };
  }, [places, linkOf, navigate, land, border, theme.palette.primary.main]);

  return (
    <Box
      ref={container}
      role="img"
      aria-label={`Map of the most mentioned places: ${places.map((p) => `${p.name} ${p.count}`).join(', ')}`}
      sx={{
        height: 180,
        mb: 1,
        borderRadius: 1,
        border: 1,
        borderColor: 'divider',
        '& .leaflet-container': { bgcolor: sea },
      }}
      style={{ background: sea }}
    />
  );
}
