import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import type { CasePlace } from '../../api/cases';
import { useMapBase } from '../../hooks/useMapBase';
import { baseMapColours, searchMap } from '../../lib/baseMap';

/** The places the case's items are at or mention, on the app's base map; the list beside it says the same. */
export function CaseMap({ places }: { places: CasePlace[] }) {
  const theme = useTheme();
  const container = useRef<HTMLDivElement>(null);
  const mode = theme.palette.mode;
  const { sea } = baseMapColours(mode);
  const base = useMapBase();

  useEffect(() => {
    if (!container.current || !base) return;
    const { map, remove } = searchMap(container.current, mode, base);
    const markers = places.map((p) =>
      L.circleMarker([p.lat, p.lon], {
        radius: 7,
        color: '#ffffff',
        weight: 1.5,
        fillColor: theme.palette.primary.main,
        fillOpacity: 0.9,
      })
        .bindTooltip(`${p.name || 'Unnamed place'} · item ${p.items.join(', ')}`)
        .addTo(map),
    );
    if (markers.length > 0) {
      map.fitBounds(L.featureGroup(markers).getBounds().pad(0.5), { maxZoom: 6 });
    }
    return remove;
  }, [mode, base, places, theme.palette.primary.main]);

  return (
    <Box
      ref={container}
      role="region"
      aria-label="Map of the case's places"
      sx={{ height: 260, borderRadius: 2, border: 1, borderColor: 'divider', bgcolor: sea }}
      style={{ background: sea }}
    />
  );
}
