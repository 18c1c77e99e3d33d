import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import type { Dashboard } from '../../api/dashboard';
import { useMapBase } from '../../hooks/useMapBase';
import { baseMapColours, widgetMap } from '../../lib/baseMap';

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
  const mode = theme.palette.mode;
  const { sea } = baseMapColours(mode);
  const base = useMapBase();

  useEffect(() => {
    if (!container.current || !base) return;
    const { map, remove } = widgetMap(container.current, mode, base);
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
    return remove;
  }, [places, linkOf, navigate, mode, theme.palette.primary.main, base]);

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
