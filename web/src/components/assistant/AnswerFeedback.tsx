import ThumbDown from '@mui/icons-material/ThumbDown';
import ThumbDownOutlined from '@mui/icons-material/ThumbDownOutlined';
import ThumbUp from '@mui/icons-material/ThumbUp';
import ThumbUpOutlined from '@mui/icons-material/ThumbUpOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import type { AssistantFeedback, AssistantRating } from '../../api/assistant';
import { MAX_FEEDBACK_COMMENT } from '../../api/contracts.gen';
import { useAnswerFeedback } from '../../hooks/useAssistant';

/** The feedback error (search-side.md section 8 lists a feedback error; its text is ours). */
export const FEEDBACK_ERROR = 'Your feedback could not be saved. Try again.';

/**
 * Thumbs up or down on an answer, stored for the user (docs/assistant.md). The rating is saved on
 * the click; a thumbs down then offers a comment on what was wrong. Clicking the chosen thumb again
 * withdraws the rating.
 */
export function AnswerFeedback({
  messageId,
  initial = null,
}: {
  messageId: number;
  initial?: AssistantFeedback | null;
}) {
  const feedback = useAnswerFeedback();
  const [rating, setRating] = useState<AssistantRating | null>(initial?.rating ?? null);
  const [comment, setComment] = useState(initial?.comment ?? '');
  const [asking, setAsking] = useState(false);
  const [thanked, setThanked] = useState(false);
  const [failed, setFailed] = useState(false);

  const save = (next: AssistantRating | null, text: string, then?: () => void) => {
    const before = rating;
    setRating(next);
    setFailed(false);
    setThanked(false);
    feedback.mutate(
      { messageId, rating: next, comment: text },
      {
        onSuccess: () => then?.(),
        onError: () => {
          setRating(before);
          setFailed(true);
        },
      },
    );
  };

  const choose = (choice: AssistantRating) => {
    if (rating === choice) {
      setAsking(false);
      setComment('');
      save(null, '');
      return;
    }
    setAsking(choice === 'down');
    save(choice, choice === 'down' ? comment : '', () => setThanked(choice === 'up'));
  };

  const sendComment = (event: FormEvent) => {
    event.preventDefault();
    save('down', comment.trim(), () => {
      setAsking(false);
      setThanked(true);
    });
  };

  return (
    <Box>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }} role="group" aria-label="Rate this answer">
        <Tooltip title="Helpful">
          <IconButton
            size="small"
            aria-label="Helpful"
            aria-pressed={rating === 'up'}
            color={rating === 'up' ? 'primary' : 'default'}
            onClick={() => choose('up')}
            disabled={feedback.isPending}
          >
            {rating === 'up' ? <ThumbUp fontSize="small" /> : <ThumbUpOutlined fontSize="small" />}
          </IconButton>
        </Tooltip>
        <Tooltip title="Not helpful">
          <IconButton
            size="small"
            aria-label="Not helpful"
            aria-pressed={rating === 'down'}
            color={rating === 'down' ? 'primary' : 'default'}
            onClick={() => choose('down')}
            disabled={feedback.isPending}
          >
            {rating === 'down' ? <ThumbDown fontSize="small" /> : <ThumbDownOutlined fontSize="small" />}
          </IconButton>
        </Tooltip>
        {thanked && (
          <Typography variant="caption" color="text.secondary" role="status">
            Thanks for the feedback.
          </Typography>
        )}
      </Stack>
      {asking && rating === 'down' && (
        <Box component="form" onSubmit={sendComment} sx={{ mt: 1 }}>
          <TextField
            label="What was wrong? (optional)"
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            size="small"
            multiline
            maxRows={4}
            fullWidth
            slotProps={{ htmlInput: { maxLength: MAX_FEEDBACK_COMMENT } }}
          />
          <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
            <Button
              size="small"
              onClick={() => {
                setAsking(false);
                setThanked(true);
              }}
            >
              No comment
            </Button>
            <Button size="small" type="submit" variant="contained" disabled={feedback.isPending || !comment.trim()}>
              Send
            </Button>
          </Stack>
        </Box>
      )}
      {failed && (
        <Typography variant="caption" color="error" role="alert" component="p">
          {FEEDBACK_ERROR}
        </Typography>
      )}
    </Box>
  );
}
