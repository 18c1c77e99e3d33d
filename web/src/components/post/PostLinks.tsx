import ForumOutlined from '@mui/icons-material/ForumOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { Post } from '../../api/monitor';

/** A post's way out: its thread, and the original (through the external-link warning). */
export function PostLinks({
  post,
  onThread,
  onOpenPost,
}: {
  post: Post;
  onThread: () => void;
  onOpenPost: (url: string) => void;
}) {
  return (
    <>
      <Tooltip title="View thread">
        <IconButton size="small" aria-label="View thread" onClick={onThread}>
          <ForumOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      {post.post_link && (
        <Tooltip title="Open the original post">
          <IconButton size="small" aria-label="Open the original post" onClick={() => onOpenPost(post.post_link ?? '')}>
            <OpenInNewOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );
}
