import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Box from '@mui/material/Box';
import type { Post } from '../../api/monitor';
import { useShowMentionedPlaces } from '../../hooks/useProfileQuery';

const SHOWN = 4;

/** The places a post's text names, unless the user turned them off in Settings. */
export function MentionedPlaces({ post }: { post: Post }) {
  const show = useShowMentionedPlaces();
  const places = [...new Set((post.mentioned_locations ?? []).map((p) => p.name))];
  if (!show || places.length === 0) return null;
  const more = places.length - SHOWN;
  return (
    <Box
      aria-label={`Mentions ${places.join(', ')}`}
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontSize: 12, color: 'text.secondary', mt: 0.5 }}
    >
      <PlaceOutlined sx={{ fontSize: 14 }} aria-hidden />
      <span>
        Mentions {places.slice(0, SHOWN).join(', ')}
        {more > 0 && ` and ${more} more`}
      </span>
    </Box>
  );
}
