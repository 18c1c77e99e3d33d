import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { CaseCommentReply } from '../../api/cases';
import { fieldError, formError } from '../../api/fieldError';
import type { OrganizationMember } from '../../api/settings';
import { useAddCaseComment } from '../../hooks/useCaseQueries';
import { RelativeTime } from '../RelativeTime';
import { MentionField } from './MentionField';

/** A case's comments, oldest first, and the box to add one that mentions colleagues. */
export function CaseComments({
  caseId,
  comments,
  members,
}: {
  caseId: number;
  comments: CaseCommentReply[];
  members: OrganizationMember[];
}) {
  const [body, setBody] = useState('');
  const add = useAddCaseComment(caseId);
  const problem = formError(add.error, ['body']);
  return (
    <Stack spacing={2}>
      {comments.length === 0 && (
        <Typography color="text.secondary">No comments yet. Ask a colleague with @ and their name.</Typography>
      )}
      {comments.map((c) => (
        <Stack
          key={c.id}
          component="article"
          aria-label={`Comment by ${c.author.name || c.author.email}`}
          spacing={0.5}
        >
          <Typography variant="body2" color="text.secondary">
            <strong>{c.author.name || c.author.email}</strong> · <RelativeTime date={new Date(c.createdAt)} />
          </Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{c.body}</Typography>
        </Stack>
      ))}
      <Stack
        component="form"
        spacing={1}
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate(body, { onSuccess: () => setBody('') });
        }}
      >
        <MentionField
          label="Comment"
          value={body}
          onChange={setBody}
          members={members}
          error={fieldError(add.error, 'body') !== undefined}
          helperText={fieldError(add.error, 'body')}
        />
        {problem && <Alert severity="error">{problem}</Alert>}
        <div>
          <Button type="submit" variant="contained" disabled={body.trim() === '' || add.isPending}>
            Comment
          </Button>
        </div>
      </Stack>
    </Stack>
  );
}
