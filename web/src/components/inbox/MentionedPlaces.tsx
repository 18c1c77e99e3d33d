import Close from '@mui/icons-material/Close';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import { Fragment, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { Post } from '../../api/monitor';
import type { MentionedLocation } from '../../api/posts';
import { usePlaceChange } from '../../hooks/usePlaceChange';
import { useProfile, useShowMentionedPlaces } from '../../hooks/useProfileQuery';
import { placeSearchPath } from '../../lib/locateSearch';
import { canOpen } from '../../lib/productAreas';

const SHOWN = 4;

const samePlace = (a: MentionedLocation, b: MentionedLocation) =>
  a.name === b.name && a.country_code === b.country_code;

/**
 * The places a post's text names, unless the user turned them off in Settings. Each opens Locate
 * there and can be removed from the post for the user's whole tenant (the gazetteer misread the
 * text); a place removed here can be put back until the card goes.
 */
export function MentionedPlaces({ post }: { post: Post }) {
  const show = useShowMentionedPlaces();
  const linked = canOpen('locate', useProfile());
  const change = usePlaceChange();
  // The server's answer to the last change stands until the post is loaded again with it.
  const [answered, setAnswered] = useState<{ of: Post; places: MentionedLocation[] } | null>(null);
  const [removed, setRemoved] = useState<MentionedLocation[]>([]);
  const current = answered?.of === post ? answered.places : (post.mentioned_locations ?? []);
  const places = current.filter((p, i) => current.findIndex((q) => samePlace(p, q)) === i);
  if (!show || (places.length === 0 && removed.length === 0)) return null;
  const more = places.length - SHOWN;

  const act = (place: MentionedLocation, restore: boolean) =>
    change.mutate(
      { postId: post.id, place, restore },
      {
        onSuccess: (kept) => {
          setAnswered({ of: post, places: kept });
          setRemoved((was) => (restore ? was.filter((p) => !samePlace(p, place)) : [...was, place]));
        },
      },
    );

  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 0.5,
        fontSize: 12,
        color: 'text.secondary',
        mt: 0.5,
      }}
    >
      <PlaceOutlined sx={{ fontSize: 14 }} aria-hidden />
      {places.length > 0 && (
        <Box component="span" aria-label={`Mentions ${places.map((p) => p.name).join(', ')}`}>
          Mentions{' '}
          {places.slice(0, SHOWN).map((place, i) => (
            <Fragment key={`${place.country_code}/${place.name}`}>
              {i > 0 && ', '}
              {linked ? (
                <Link component={RouterLink} to={placeSearchPath(place)} color="inherit" underline="hover">
                  {place.name}
                </Link>
              ) : (
                place.name
              )}
              <Tooltip title="Not about this place: remove it from the post for everyone in your tenant">
                <IconButton
                  size="small"
                  aria-label={`Remove place ${place.name}`}
                  disabled={change.isPending}
                  onClick={() => act(place, false)}
                  sx={{ p: 0.25 }}
                >
                  <Close sx={{ fontSize: 12 }} />
                </IconButton>
              </Tooltip>
            </Fragment>
          ))}
          {more > 0 && ` and ${more} more`}
        </Box>
      )}
      {removed.map((place) => (
        <Box component="span" key={`removed ${place.country_code}/${place.name}`}>
          Removed {place.name}.{' '}
          <Link
            component="button"
            type="button"
            aria-label={`Restore place ${place.name}`}
            disabled={change.isPending}
            onClick={() => act(place, true)}
            sx={{ fontSize: 'inherit', verticalAlign: 'baseline' }}
          >
            Undo
          </Link>
        </Box>
      ))}
    </Box>
  );
}
