import BrokenImageOutlined from '@mui/icons-material/BrokenImageOutlined';
import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import VideocamOffOutlined from '@mui/icons-material/VideocamOffOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type SvgIcon from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Post } from '../../api/monitor';
import { proxiedImageUrl } from '../../lib/imageUrl';
import { isWebUrl } from '../../lib/webUrl';

const GRID_IMAGE_WIDTH = 640;
const LIST_IMAGE_WIDTH = 160;

/**
 * A post's first picture, through the image proxy, and a way to its video. With the media
 * sensitivity setting on "blur", pictures stay blurred until the user reveals them. A picture
 * that does not load, or a video without a link that can be opened, says so in its place.
 */
export function PostMedia({
  post,
  blur,
  onOpenVideo,
  compact = false,
}: {
  post: Post;
  blur: boolean;
  onOpenVideo: (url: string) => void;
  compact?: boolean;
}) {
  const [revealed, setRevealed] = useState(false);
  const [broken, setBroken] = useState(false);
  const photo = post.photos?.[0];
  // Only an http or https video link is offered: Sightline's demo videos are pictures on its own origin.
  const video = post.videos?.find((v) => isWebUrl(v.large));
  const photoSrc = photo && proxiedImageUrl(photo.normal || photo.large, compact ? LIST_IMAGE_WIDTH : GRID_IMAGE_WIDTH);
  const hasVideo = (post.videos?.length ?? 0) > 0;
  if (!photo && !hasVideo) return null;
  const shown = photoSrc !== undefined && !broken;
  const hidden = blur && !revealed;
  const size = compact ? { width: 96, height: 72, flexShrink: 0 } : { width: '100%', aspectRatio: '16 / 10' };
  return (
    <Box sx={{ position: 'relative', overflow: 'hidden', borderRadius: 1.5, bgcolor: 'action.hover', ...size }}>
      {shown && (
        <Box
          component="img"
          src={photoSrc}
          alt={
            post.detected_objects?.length
              ? `Picture showing ${post.detected_objects.join(', ')}`
              : 'Picture in the post'
          }
          loading="lazy"
          onError={() => setBroken(true)}
          sx={{
            width: '100%',
            height: '100%',
            objectFit: 'cover',
            display: 'block',
            filter: hidden ? 'blur(22px)' : 'none',
          }}
        />
      )}
      {hidden && shown && (
        <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
          <Button
            size="small"
            variant="contained"
            color="inherit"
            startIcon={compact ? undefined : <VisibilityOutlined />}
            onClick={() => setRevealed(true)}
            aria-label={compact ? 'Show sensitive media' : 'Show media (sensitive)'}
            sx={{ bgcolor: 'background.paper', minWidth: 0 }}
          >
            {compact ? 'Show' : 'Show media'}
          </Button>
        </Box>
      )}
      {!shown &&
        (video ? (
          <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
            <Button startIcon={<PlayCircleOutlined />} onClick={() => onOpenVideo(video.large)} size="small">
              {compact ? 'Video' : 'Open the video'}
            </Button>
          </Box>
        ) : photo ? (
          <Unavailable icon={BrokenImageOutlined} text="Image unavailable" />
        ) : (
          <Unavailable icon={VideocamOffOutlined} text="Video cannot be played" />
        ))}
    </Box>
  );
}

/** In place of media that cannot be shown: what is missing, in words. */
function Unavailable({ icon: Icon, text }: { icon: typeof SvgIcon; text: string }) {
  return (
    <Box
      sx={{
        position: 'absolute',
        inset: 0,
        display: 'grid',
        placeContent: 'center',
        justifyItems: 'center',
        gap: 0.5,
        p: 0.5,
        color: 'text.secondary',
        textAlign: 'center',
      }}
    >
      <Icon fontSize="small" aria-hidden />
      <Typography variant="caption">{text}</Typography>
    </Box>
  );
}
