import { useAuthorLink } from '../../hooks/useAuthorLink';
import Flag from '@mui/icons-material/Flag';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { memo } from 'react';
import type { Match, Provider } from '../../api/monitor';
import type { Term } from '../../lib/highlight';
import { authorOf } from '../../lib/postAuthor';
import { AnalyzeButton } from '../assistant/AnalyzeButton';
import { PostCard } from '../post/PostCard';
import { PostLinks } from '../post/PostLinks';
import { MatchedTerms } from './MatchedTerms';
import { MentionedPlaces } from './MentionedPlaces';

export interface MatchCardActions {
  /** Ticks the match for the bulk actions; where there are none, the card has no checkbox. */
  onSelect?: (matchId: number, selected: boolean) => void;
  onFlag: (match: Match) => void;
  onRead: (match: Match) => void;
  onThread: (match: Match) => void;
  onAnalyze: (match: Match) => void;
  /** Opens the post, or one of its videos, on its site. */
  onOpenPost: (url: string, match: Match) => void;
}

/** A match as a card (grid) or a row (list): the post, where it matched, and the inbox's actions. */
export const MatchCard = memo(function MatchCard({
  match,
  positionInFeed,
  feedSize,
  provider,
  variant,
  selected,
  terms,
  blurMedia,
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
  actions: MatchCardActions;
}) {
  const { post, matchMeta } = match;
  const author = authorOf(post);
  const unread = !matchMeta.isRead;
  const list = variant === 'list';
  const readOnly = !matchMeta.canEdit;
  const authorLink = useAuthorLink();
  return (
    <PostCard
      post={post}
      provider={provider}
      terms={terms}
      blurMedia={blurMedia}
      variant={variant}
      label={`${unread ? 'Unread match' : 'Match'} by ${author}`}
      published={new Date(match.publishedDate * 1000)}
      emphasis={unread}
      selected={selected}
      positionInFeed={positionInFeed}
      feedSize={feedSize}
      onOpenVideo={(url) => actions.onOpenPost(url, match)}
      authorHref={authorLink(post)}
      matchId={matchMeta.matchId}
      leading={
        <Stack direction={list ? 'column' : 'row'} spacing={0.5} sx={{ alignItems: list ? 'center' : 'flex-start' }}>
          {actions.onSelect && (
            <Checkbox
              size="small"
              checked={selected}
              onChange={(event) => actions.onSelect?.(matchMeta.matchId, event.target.checked)}
              slotProps={{ input: { 'aria-label': `Select the match by ${author}` } }}
              sx={{ p: 0.5 }}
            />
          )}
          {unread && (
            <Box
              aria-hidden
              sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'primary.main', mt: list ? 0.5 : 1.25 }}
            />
          )}
        </Stack>
      }
      tag={<Chip size="small" label={match.monitorSearchName} sx={{ maxWidth: list ? 200 : 160, mr: list ? 1 : 0 }} />}
      details={
        <>
          <MatchedTerms terms={matchMeta.matchedTerms} />
          <MentionedPlaces post={post} />
        </>
      }
      actions={
        <>
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
          <AnalyzeButton onClick={() => actions.onAnalyze(match)} />
          <PostLinks
            post={post}
            onThread={() => actions.onThread(match)}
            onOpenPost={(url) => actions.onOpenPost(url, match)}
          />
        </>
      }
    />
  );
});
