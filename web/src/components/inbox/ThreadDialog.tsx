import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { monitorKeys } from '../../api/keys';
import { fetchThreadContext, type Post, type Provider } from '../../api/monitor';
import { formatDateTime } from '../../lib/dateRange';
import type { Term } from '../../lib/highlight';
import { ProviderIcon } from '../ProviderIcon';
import { HighlightedText } from './HighlightedText';

/** The thread a post belongs to, in time order, with the post itself marked. */
export function ThreadDialog({
  post: shown,
  provider,
  terms,
  onClose,
}: {
  post: Post;
  provider: Provider | undefined;
  terms: Term[];
  onClose: () => void;
}) {
  const titleId = useId();
  const thread = useQuery({
    queryKey: monitorKeys.thread(shown.id),
    queryFn: ({ signal }) => fetchThreadContext(shown.id, signal),
  });
  const posts = thread.data ? (thread.data.thread.length > 0 ? thread.data.thread : [thread.data.post]) : [];
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <ProviderIcon
            icon={provider?.icon ?? ''}
            color={provider?.color ?? '#6b7280'}
            displayName={provider?.displayName ?? shown.provider}
          />
          <span>Thread{shown.board ? ` in ${shown.board}` : ''}</span>
        </Stack>
      </DialogTitle>
      <DialogContent dividers>
        {thread.isPending && (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
            <CircularProgress aria-label="Loading the thread" />
          </Box>
        )}
        {thread.isError && <Alert severity="error">Unable to load thread for this post.</Alert>}
        <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {posts.map((post) => {
            const current = post.id === shown.id;
            const published = new Date(post.published_at);
            return (
              <Box
                component="li"
                key={post.id}
                aria-current={current ? 'true' : undefined}
                sx={{
                  p: 1.5,
                  borderRadius: 1.5,
                  border: 1,
                  borderColor: current ? 'primary.main' : 'divider',
                  bgcolor: current ? 'action.selected' : 'transparent',
                  ml: post.parent_id && !current ? 2 : 0,
                }}
              >
                <Typography variant="body2" sx={{ fontWeight: 650 }}>
                  {post.author_name || post.author_screen_name || 'Unknown author'}
                  <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
                    {Number.isNaN(published.getTime()) ? '' : formatDateTime(published)}
                    {current && ' · this post'}
                  </Typography>
                </Typography>
                {post.title_text && (
                  <Typography variant="subtitle2">
                    <HighlightedText text={post.title_text} terms={terms} />
                  </Typography>
                )}
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  <HighlightedText text={post.content_text ?? ''} terms={terms} />
                </Typography>
              </Box>
            );
          })}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
