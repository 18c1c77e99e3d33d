import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { CaseItemReply } from '../../api/cases';
import { fieldError } from '../../api/fieldError';
import { useDeleteCaseItem, useUpdateCaseItem } from '../../hooks/useCaseQueries';
import { RelativeTime } from '../RelativeTime';
import { EvidenceDetails } from './EvidenceDetails';

const kindLabels = { post: 'Post', story: 'Story', match: 'Match', evidence: 'Evidence' } as const;

/** One item of a case: what it shows, its note (editable by editors) and who added it. */
export function CaseItemCard({
  caseId,
  item,
  number,
  canEdit,
}: {
  caseId: number;
  item: CaseItemReply;
  number: number;
  canEdit: boolean;
}) {
  const [note, setNote] = useState(item.note);
  const update = useUpdateCaseItem(caseId);
  const remove = useDeleteCaseItem(caseId);
  const post = item.post;
  const title = item.title || item.ref;
  return (
    <Box
      component="article"
      aria-label={`Item ${number}: ${title}`}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2, bgcolor: 'background.paper' }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" component="h3">
          {number}.
        </Typography>
        <Chip size="small" label={kindLabels[item.kind]} />
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }} noWrap>
          added by {item.addedBy.name || item.addedBy.email} <RelativeTime date={new Date(item.createdAt)} />
        </Typography>
        {canEdit && (
          <Tooltip title="Remove from the case">
            <IconButton
              size="small"
              aria-label={`Remove item ${number}`}
              onClick={() => remove.mutate(item.id)}
              disabled={remove.isPending}
            >
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      {post ? (
        <>
          <Typography variant="body2" color="text.secondary">
            {post.author_name || post.author_screen_name || 'Unknown author'} · {post.provider} ·{' '}
            {new Date(post.published_at).toLocaleString()}
          </Typography>
          {post.title_text && <Typography sx={{ fontWeight: 600 }}>{post.title_text}</Typography>}
          <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', my: 1 }}>{post.content_text}</Typography>
          {post.post_link && (
            <Link href={post.post_link} target="_blank" rel="noopener noreferrer" variant="body2">
              Open the original
            </Link>
          )}
        </>
      ) : (
        <Typography sx={{ my: 1 }}>Evidence record {item.ref}</Typography>
      )}
      {item.kind === 'evidence' && <EvidenceDetails id={item.ref} />}
      {canEdit ? (
        <Stack
          component="form"
          direction="row"
          spacing={1}
          sx={{ mt: 1.5, alignItems: 'flex-start' }}
          onSubmit={(event) => {
            event.preventDefault();
            update.mutate({ itemId: item.id, note });
          }}
        >
          <TextField
            label="Note"
            size="small"
            multiline
            fullWidth
            value={note}
            onChange={(event) => setNote(event.target.value)}
            error={fieldError(update.error, 'note') !== undefined}
            helperText={fieldError(update.error, 'note')}
          />
          <Button
            type="submit"
            disabled={note === item.note || update.isPending}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            Save note
          </Button>
        </Stack>
      ) : (
        item.note && (
          <Typography sx={{ mt: 1, p: 1, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap' }}>
            {item.note}
          </Typography>
        )
      )}
    </Box>
  );
}
