import Flag from '@mui/icons-material/Flag';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import type { Match, Provider } from '../../api/monitor';
import { formatDateTime } from '../../lib/dateRange';
import type { Term } from '../../lib/highlight';
import { relativeTime } from '../../lib/relativeTime';
import { ProviderIcon } from '../ProviderIcon';
import { HighlightedText } from './HighlightedText';
import { MatchedTerms } from './MatchedTerms';
import { PostMedia } from './PostMedia';

export interface MatchCardActions {
  onSelect: (matchId: number, selected: boolean) => void;
  onFlag: (match: Match) => void;
  onRead: (match: Match) => void;
  onThread: (match: Match) => void;
  onOpenPost: (url: string) => void;
}

const UNKNOWN_PROVIDER_COLOR = '#6b7280';

/** A match as a card (grid) or a row (list): who posted what, when, where it matched, and actions. */
export const MatchCard = memo(function MatchCard({
  match,
  positionInFeed,
  feedSize,
  provider,
  variant,
  selected,
  terms,
  blurMedia,
  now,
  actions,
}: {
  match: Match;
  /** Where the card stands in the feed, for screen readers. */
  positionInFeed: number;
  feedSize: number;
  provider: Provider | undefined;
  variant: 'grid' | 'list';
  selected: boolean;
  terms: Term[];
  blurMedia: boolean;
  now: Date;
  actions: MatchCardActions;
}) {
  const { post, matchMeta } = match;
  const published = new Date(match.publishedDate * 1000);
  const author = post.author_name || post.author_screen_name || 'Unknown author';
  const color = provider?.color ?? UNKNOWN_PROVIDER_COLOR;
  const unread = !matchMeta.isRead;
  const list = variant === 'list';
  const readOnly = !matchMeta.canEdit;
  return (
    <Box
      component="article"
      aria-label={`${unread ? 'Unread match' : 'Match'} by ${author}`}
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
      <Stack direction={list ? 'column' : 'row'} spacing={0.5} sx={{ alignItems: list ? 'center' : 'flex-start' }}>
        <Checkbox
          size="small"
          checked={selected}
          onChange={(event) => actions.onSelect(matchMeta.matchId, event.target.checked)}
          slotProps={{ input: { 'aria-label': `Select the match by ${author}` } }}
          sx={{ p: 0.5 }}
        />
        {unread && (
          <Box
            aria-hidden
            sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'primary.main', mt: list ? 0.5 : 1.25 }}
          />
        )}
      </Stack>
      <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <ProviderIcon
            icon={provider?.icon ?? ''}
            color={color}
            displayName={provider?.displayName ?? post.provider}
            size={list ? 20 : 24}
          />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="body2" noWrap sx={{ fontWeight: unread ? 700 : 600 }}>
              {author}
              {post.author_screen_name && post.author_name && (
                <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 0.75 }}>
                  @{post.author_screen_name}
                </Typography>
              )}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              {provider?.displayName ?? post.provider} ·{' '}
              <time dateTime={published.toISOString()} title={formatDateTime(published)}>
                {relativeTime(published, now)}
              </time>
              {post.place_name && (
                <>
                  {' · '}
                  <PlaceOutlined sx={{ fontSize: 12, verticalAlign: '-2px' }} /> {post.place_name}
                </>
              )}
            </Typography>
          </Box>
          {!list && <Chip size="small" label={match.monitorSearchName} sx={{ maxWidth: 160 }} />}
        </Stack>
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
        <MatchedTerms terms={matchMeta.matchedTerms} />
        {!list && <PostMedia post={post} blur={blurMedia} onOpenVideo={actions.onOpenPost} />}
        <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', mt: 'auto' }}>
          {list && <Chip size="small" label={match.monitorSearchName} sx={{ maxWidth: 200, mr: 1 }} />}
          <Tooltip
            title={
              readOnly
                ? 'You can view this search but not flag its matches'
                : matchMeta.isFlagged
                  ? 'Remove flag'
                  : 'Flag'
            }
          >
            <span>
              <IconButton
                size="small"
                aria-label={matchMeta.isFlagged ? 'Remove flag' : 'Flag'}
                aria-pressed={matchMeta.isFlagged}
                disabled={readOnly}
                onClick={() => actions.onFlag(match)}
              >
                {matchMeta.isFlagged ? <Flag fontSize="small" color="warning" /> : <FlagOutlined fontSize="small" />}
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={unread ? 'Mark as read' : 'Mark as unread'}>
            <IconButton
              size="small"
              aria-label={unread ? 'Mark as read' : 'Mark as unread'}
              onClick={() => actions.onRead(match)}
            >
              {unread ? <MarkEmailReadOutlined fontSize="small" /> : <MarkEmailUnreadOutlined fontSize="small" />}
            </IconButton>
          </Tooltip>
          <Tooltip title="View thread">
            <IconButton size="small" aria-label="View thread" onClick={() => actions.onThread(match)}>
              <ForumOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
          {post.post_link && (
            <Tooltip title="Open the original post">
              <IconButton
                size="small"
                aria-label="Open the original post"
                onClick={() => actions.onOpenPost(post.post_link ?? '')}
              >
                <OpenInNewOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {post.demo && (
            <Typography variant="caption" color="text.secondary" sx={{ ml: 'auto !important' }}>
              Demo data
            </Typography>
          )}
        </Stack>
      </Stack>
      {list && <PostMedia post={post} blur={blurMedia} onOpenVideo={actions.onOpenPost} compact />}
    </Box>
  );
});
