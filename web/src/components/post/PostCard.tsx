import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { Post, Provider } from '../../api/monitor';
import { authorOf } from '../../lib/postAuthor';
import { originOf } from '../../lib/postOrigin';
import type { Term } from '../../lib/highlight';
import { countOf } from '../../lib/countFormat';
import { HighlightedText } from '../inbox/HighlightedText';
import { PostMedia } from '../inbox/PostMedia';
import { ProviderIcon } from '../ProviderIcon';
import { RelativeTime } from '../RelativeTime';
import { AddToCaseButton } from '../cases/AddToCaseButton';
import { PostTranslation } from '../translate/PostTranslation';
import { CaptureButton } from '../evidence/CaptureButton';
import { DeletedByProvider } from './DeletedByProvider';
import { UsPersonsMarker } from './UsPersonsMarker';

const UNKNOWN_PROVIDER_COLOR = '#6b7280';

/**
 * A post as a card (grid) or a row (list): who posted what and when, with the search's terms
 * highlighted and its media. The inbox's match card and Beacon's result card fill the slots:
 * `leading` beside it (selection), `tag` by the author (the search's name), `details` under the
 * text (why it matched) and `actions` at the foot. Every card can be captured as evidence and
 * added to a case.
 */
export function PostCard({
  post,
  provider,
  terms,
  blurMedia,
  variant,
  label,
  published,
  emphasis = false,
  selected = false,
  positionInFeed,
  feedSize,
  leading,
  tag,
  details,
  actions,
  onOpenVideo,
  authorHref = null,
  matchId,
}: {
  post: Post;
  provider: Provider | undefined;
  terms: Term[];
  blurMedia: boolean;
  variant: 'grid' | 'list';
  /** The card's accessible name. */
  label: string;
  published: Date;
  /** Bold author, as for an unread match. */
  emphasis?: boolean;
  selected?: boolean;
  /** Where the card stands in the feed, for screen readers. */
  positionInFeed?: number;
  feedSize?: number;
  leading?: ReactNode;
  tag?: ReactNode;
  details?: ReactNode;
  actions: ReactNode;
  onOpenVideo: (url: string) => void;
  /** The author's profile, linked from their name; null for none. */
  authorHref?: string | null;
  /** The inbox's match the card shows: Capture records the match (its search and terms), not only the post. */
  matchId?: number;
}) {
  const author = authorOf(post);
  const color = provider?.color ?? UNKNOWN_PROVIDER_COLOR;
  const list = variant === 'list';
  return (
    <Box
      component="article"
      aria-label={label}
      aria-posinset={positionInFeed}
      aria-setsize={feedSize}
      sx={{
        position: 'relative',
        display: 'flex',
        flexDirection: list ? 'row' : 'column',
        gap: list ? 1.5 : 1,
        p: list ? 1.25 : 1.75,
        height: list ? undefined : '100%',
        bgcolor: selected ? 'action.selected' : 'background.paper',
        border: 1,
        borderColor: 'divider',
        borderLeft: `4px solid ${color}`,
        borderRadius: list ? 1 : 2,
      }}
    >
      {leading}
      <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <ProviderIcon
            icon={provider?.icon ?? ''}
            color={color}
            displayName={provider?.displayName ?? post.provider}
            size={list ? 20 : 24}
          />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="body2" noWrap sx={{ fontWeight: emphasis ? 700 : 600 }}>
              {authorHref ? (
                <Link component={RouterLink} to={authorHref} color="inherit" underline="hover">
                  {author}
                </Link>
              ) : (
                author
              )}
              {post.author_screen_name && post.author_name && (
                <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 0.75 }}>
                  @{post.author_screen_name}
                </Typography>
              )}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              {provider?.displayName ?? post.provider} · <RelativeTime date={published} />
              {post.place_name && (
                <>
                  {' · '}
                  <PlaceOutlined sx={{ fontSize: 12, verticalAlign: '-2px' }} /> {post.place_name}
                </>
              )}
              {post.engagement ? ` · ${countOf(post.engagement, 'reaction', 'reactions')}` : ''}
              {post.author_followers ? ` · ${countOf(post.author_followers, 'follower', 'followers')}` : ''}
            </Typography>
          </Box>
          {!list && tag}
        </Stack>
        <DeletedByProvider post={post} />
        {post.title_text && (
          <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 650 }}>
            <HighlightedText text={post.title_text} terms={terms} />
          </Typography>
        )}
        {post.content_text && (
          <Typography
            variant="body2"
            sx={{
              display: '-webkit-box',
              WebkitLineClamp: list ? 2 : 8,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
              overflowWrap: 'anywhere',
            }}
          >
            <HighlightedText text={post.content_text} terms={terms} />
          </Typography>
        )}
        <PostTranslation post={post} />
        {details}
        {!list && <PostMedia post={post} blur={blurMedia} onOpenVideo={onOpenVideo} />}
        <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', mt: 'auto' }}>
          {list && tag}
          {actions}
          <CaptureButton target={matchId === undefined ? { postId: post.id } : { matchId: String(matchId) }} />
          <AddToCaseButton target={{ postId: post.id }} />
          <UsPersonsMarker post={post} />
          <Typography
            variant="caption"
            color="text.secondary"
            noWrap
            title={originOf(post)}
            sx={{ ml: 'auto !important', minWidth: 0 }}
          >
            {post.demo && 'Demo data · '}
            {originOf(post)}
          </Typography>
        </Stack>
      </Stack>
      {list && <PostMedia post={post} blur={blurMedia} onOpenVideo={onOpenVideo} compact />}
    </Box>
  );
}
