import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import type { Match, Provider } from '../../api/monitor';
import { useShowMentionedPlaces } from '../../hooks/useProfileQuery';
import { matchPoint } from '../../lib/matchPoint';
import { useMapBase } from '../../hooks/useMapBase';
import { baseMapColours, searchMap } from '../../lib/baseMap';
import { postPopup } from '../../lib/postPopup';

/**
 * The matches that carry a place, as points on a world map. Beside the map, the same matches in
 * a list that keyboards and screen readers can use; choosing one flies the map to it.
 */
export function MatchMap({
  matches,
  providers,
  onLoadMore,
}: {
  matches: Match[];
  providers: Map<string, Provider>;
  /** Loads the next page of matches; absent when all are loaded. */
  onLoadMore?: () => void;
}) {
  const theme = useTheme();
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const markers = useRef<L.LayerGroup | null>(null);
  const byId = useRef(new Map<number, L.CircleMarker>());
  const showMentioned = useShowMentionedPlaces();
  const located = useMemo(
    () =>
      matches.flatMap((match) => {
        const point = matchPoint(match, showMentioned);
        return point ? [{ match, point }] : [];
      }),
    [matches, showMentioned],
  );

  const mode = theme.palette.mode;
  const { sea } = baseMapColours(mode);
  const base = useMapBase();

  useEffect(() => {
    if (!container.current || !base) return;
    const { map: created, remove } = searchMap(container.current, mode, base);
    map.current = created;
    markers.current = L.layerGroup().addTo(created);
    return () => {
      remove();
      map.current = null;
    };
  }, [mode, base]);

  useEffect(() => {
    const group = markers.current;
    if (!group) return;
    group.clearLayers();
    byId.current.clear();
    for (const { match, point } of located) {
      const provider = providers.get(match.post.provider);
      const marker = L.circleMarker([point.lat, point.lon], {
        radius: 6,
        color: '#ffffff',
        weight: 1.5,
        fillColor: provider?.color ?? theme.palette.primary.main,
        fillOpacity: point.exact ? 0.95 : 0.55,
      }).bindPopup(postPopup(match.post, provider));
      marker.addTo(group);
      byId.current.set(match.matchMeta.matchId, marker);
    }
  }, [located, providers, theme.palette.primary.main, base]);

  const show = (matchId: number) => {
    const marker = byId.current.get(matchId);
    if (!marker || !map.current) return;
    map.current.flyTo(marker.getLatLng(), Math.max(map.current.getZoom(), 5));
    marker.openPopup();
  };

  return (
    <Box sx={{ flex: 1, minHeight: 0, display: 'flex', gap: 2, p: { xs: 1, md: 2 } }}>
      <Box
        ref={container}
        role="region"
        aria-label="Map of matches"
        sx={{
          flex: 1,
          minWidth: 0,
          borderRadius: 2,
          border: 1,
          borderColor: 'divider',
          bgcolor: sea,
          '& .leaflet-container': { bgcolor: sea },
        }}
        style={{ background: sea }}
      />
      <Box sx={{ width: 300, flexShrink: 0, overflowY: 'auto', display: { xs: 'none', md: 'block' } }}>
        <Typography variant="subtitle2" sx={{ px: 1, pb: 1 }}>
          {located.length} of {matches.length} loaded matches have a place
        </Typography>
        {onLoadMore && (
          <Button size="small" onClick={onLoadMore} sx={{ mx: 1, mb: 1 }}>
            Load more matches
          </Button>
        )}
        <List dense aria-label="Matches on the map">
          {located.map(({ match, point }) => (
            <ListItemButton key={match.matchMeta.matchId} onClick={() => show(match.matchMeta.matchId)}>
              <ListItemText
                primary={match.post.author_name || match.post.author_screen_name || 'Unknown author'}
                secondary={`${point.name}${point.exact ? '' : ' (mentioned)'} · ${match.monitorSearchName}`}
              />
            </ListItemButton>
          ))}
        </List>
      </Box>
    </Box>
  );
}
