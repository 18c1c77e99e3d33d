import Flag from '@mui/icons-material/Flag';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import type { Post, Provider } from '../../api/monitor';
import { useAuthorLink } from '../../hooks/useAuthorLink';
import { useExternalLink } from '../../hooks/useExternalLink';
import type { Term } from '../../lib/highlight';
import { AnalysisDialog } from '../assistant/AnalysisDialog';
import { AnalyzeButton } from '../assistant/AnalyzeButton';
import { MentionedPlaces } from '../inbox/MentionedPlaces';
import { ThreadDialog } from '../inbox/ThreadDialog';
import { authorOf } from '../../lib/postAuthor';
import { PostCard } from '../post/PostCard';
import { PostLinks } from '../post/PostLinks';
import { collapseStories } from '../../lib/stories';
import { StoryCopies } from './StoryCopies';

/** Marking results read, unread or deleted, where the results offer it (Beacon's). */
export interface ResultMarking {
  read: ReadonlySet<string>;
  onRead: (post: Post, read: boolean) => void;
  onDelete: (post: Post) => void;
}

/**
 * Search results as cards, each with its flag, its marks, its thread and its original. The copies
 * of one story among the results are collapsed under the first of them (docs/stories.md).
 */
export function ResultList({
  posts,
  providers,
  terms,
  flagged,
  blurMedia,
  onFlag,
  marking,
  highlighted,
  onHover,
}: {
  posts: Post[];
  providers: Map<string, Provider>;
  terms: Term[];
  flagged: ReadonlySet<string>;
  blurMedia: boolean;
  onFlag: (post: Post, flagged: boolean) => void;
  marking?: ResultMarking;
  /** The result chosen elsewhere (on a map), outlined. */
  highlighted?: string | null;
  /** Pointing at a result, or leaving it (null). */
  onHover?: (postId: string | null) => void;
}) {
  const openExternal = useExternalLink();
  const authorLink = useAuthorLink();
  const [threadOf, setThreadOf] = useState<Post | null>(null);
  const [analysed, setAnalysed] = useState<Post | null>(null);
  // The stories whose copies are shown, by their first post.
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const groups = collapseStories(posts);
  const positions = new Map(posts.map((post, i) => [post.id, i]));
  const renderPost = (post: Post, component: 'li' | 'div') => {
    const isFlagged = flagged.has(post.id);
    const unread = marking !== undefined && !marking.read.has(post.id);
    return (
      <Box
        component={component}
        key={post.id}
        id={`result-${post.id}`}
        onMouseEnter={onHover && (() => onHover(post.id))}
        onMouseLeave={onHover && (() => onHover(null))}
        sx={{
          borderRadius: 2,
          outline: highlighted === post.id ? 2 : 0,
          outlineColor: 'primary.main',
          outlineOffset: 2,
        }}
      >
        <PostCard
          post={post}
          provider={providers.get(post.provider)}
          terms={terms}
          blurMedia={blurMedia}
          variant="list"
          emphasis={unread}
          label={`${unread ? 'Unread result' : 'Result'} by ${authorOf(post)}`}
          published={new Date(post.published_at)}
          positionInFeed={(positions.get(post.id) ?? 0) + 1}
          feedSize={posts.length}
          onOpenVideo={(url) => openExternal(url)}
          authorHref={authorLink(post)}
          details={<MentionedPlaces post={post} />}
          actions={
            <>
              <Tooltip title={isFlagged ? 'Remove flag' : 'Flag for export'}>
                <IconButton
                  size="small"
                  aria-label={isFlagged ? 'Remove flag' : 'Flag for export'}
                  aria-pressed={isFlagged}
                  onClick={() => onFlag(post, !isFlagged)}
                >
                  {isFlagged ? <Flag fontSize="small" color="warning" /> : <FlagOutlined fontSize="small" />}
                </IconButton>
              </Tooltip>
              {marking && (
                <>
                  <Tooltip title={unread ? 'Mark as read' : 'Mark as unread'}>
                    <IconButton
                      size="small"
                      aria-label={unread ? 'Mark as read' : 'Mark as unread'}
                      onClick={() => marking.onRead(post, unread)}
                    >
                      {unread ? (
                        <MarkEmailReadOutlined fontSize="small" />
                      ) : (
                        <MarkEmailUnreadOutlined fontSize="small" />
                      )}
                    </IconButton>
                  </Tooltip>
                  <Tooltip title="Delete">
                    <IconButton size="small" aria-label="Delete" onClick={() => marking.onDelete(post)}>
                      <DeleteOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </>
              )}
              <AnalyzeButton onClick={() => setAnalysed(post)} />
              <PostLinks post={post} onThread={() => setThreadOf(post)} onOpenPost={(url) => openExternal(url)} />
            </>
          }
        />
      </Box>
    );
  };
  return (
    <>
      <Stack component="ol" spacing={1.25} sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label="Search results">
        {groups.map((group) => {
          if (group.copies.length === 0) return renderPost(group.lead, 'li');
          return (
            <Box component="li" key={group.lead.id}>
              {renderPost(group.lead, 'div')}
              <StoryCopies
                group={group}
                open={expanded.has(group.lead.id) || group.copies.some((p) => p.id === highlighted)}
                onToggle={(open) =>
                  setExpanded((current) => {
                    const next = new Set(current);
                    if (open) next.add(group.lead.id);
                    else next.delete(group.lead.id);
                    return next;
                  })
                }
              >
                {group.copies.map((copy) => renderPost(copy, 'li'))}
              </StoryCopies>
            </Box>
          );
        })}
      </Stack>
      {analysed && (
        <AnalysisDialog postId={analysed.id} author={authorOf(analysed)} onClose={() => setAnalysed(null)} />
      )}
      {threadOf && (
        <ThreadDialog
          post={threadOf}
          provider={providers.get(threadOf.provider)}
          terms={terms}
          onClose={() => setThreadOf(null)}
        />
      )}
    </>
  );
}
