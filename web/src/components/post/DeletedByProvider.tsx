import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Post } from '../../api/monitor';
import { RelativeTime } from '../RelativeTime';

/**
 * The state of a post its provider deleted (search-side.md section 8, "post deleted by
 * provider"): said above what was collected, which the card still shows, since it is evidence
 * of what was said. Nothing for a post the provider still has.
 */
export function DeletedByProvider({ post }: { post: Pick<Post, 'deletedAt'> }) {
  if (!post.deletedAt) return null;
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'flex-start',
        gap: 1,
        px: 1,
        py: 0.75,
        borderRadius: 1,
        border: 1,
        borderColor: 'warning.main',
        bgcolor: 'action.hover',
      }}
    >
      <DeleteForeverOutlined fontSize="small" sx={{ color: 'warning.main', mt: '1px' }} aria-hidden />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          Post deleted by the provider
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p">
          Kept as it was collected · deletion seen <RelativeTime date={new Date(post.deletedAt)} />
        </Typography>
      </Box>
    </Box>
  );
}
