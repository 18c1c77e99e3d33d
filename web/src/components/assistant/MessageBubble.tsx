import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Fragment, useEffect } from 'react';
import type { AssistantFeedback, AssistantSource } from '../../api/assistant';
import type { Provider } from '../../api/monitor';
import { answerPieces, formatMessageTime } from '../../lib/assistant';
import { AnswerFeedback } from './AnswerFeedback';
import { RelatedSearches } from './RelatedSearches';
import { SourcesPanel } from './SourcesPanel';
import { useReveal } from './useReveal';

/** One message of the conversation (search-side.md section 3). */
export interface ChatMessage {
  id: string;
  text: string;
  question: boolean;
  date: Date;
  loading: boolean;
  sources: AssistantSource[];
  /** The server's id of an answer it stored (feedback names it); none for the apology of a failed call. */
  messageId?: number;
  relatedSearches?: string[];
  feedback?: AssistantFeedback | null;
}

export function QuestionBubble({ message, initials }: { message: ChatMessage; initials: string }) {
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'flex-start' }}>
      <Box sx={{ maxWidth: '85%' }}>
        <Box sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', borderRadius: 2, px: 1.5, py: 1 }}>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {message.text}
          </Typography>
        </Box>
        <MessageTime date={message.date} align="right" />
      </Box>
      <Avatar sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'secondary.main' }} aria-hidden>
        {initials}
      </Avatar>
    </Stack>
  );
}

export function AnswerBubble({
  message,
  typing,
  onTyped,
  onGrow,
  sourcesOpen,
  onToggleSources,
  activeSource,
  onActivateSource,
  providers,
  onAsk,
  busy,
}: {
  message: ChatMessage;
  typing: boolean;
  onTyped: () => void;
  /** The answer grew while being typed (the conversation follows it down). */
  onGrow: () => void;
  sourcesOpen: boolean;
  onToggleSources: () => void;
  activeSource: number | null;
  onActivateSource: (index: number | null) => void;
  providers: Map<string, Provider>;
  /** Asks a related search. */
  onAsk: (question: string) => void;
  /** A question is being answered: related searches wait for it. */
  busy: boolean;
}) {
  const shown = useReveal(message.text, typing, onTyped);
  const done = shown >= message.text.length;
  useEffect(() => {
    if (typing) onGrow();
  }, [typing, shown, onGrow]);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Avatar sx={{ width: 32, height: 32, bgcolor: 'primary.main' }} aria-hidden>
        <AutoAwesomeOutlined fontSize="small" />
      </Avatar>
      <Box sx={{ maxWidth: '85%', minWidth: 0, flex: 1 }}>
        <Box sx={{ bgcolor: 'action.hover', borderRadius: 2, px: 1.5, py: 1 }}>
          {message.loading ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
              <CircularProgress size={16} aria-hidden />
              <Typography variant="body2">Looking through the last 7 days of posts…</Typography>
            </Stack>
          ) : (
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {done ? (
                <AnswerText text={message.text} count={message.sources.length} onCite={onActivateSource} />
              ) : (
                message.text.slice(0, shown)
              )}
            </Typography>
          )}
        </Box>
        {!message.loading && <MessageTime date={message.date} align="left" />}
        {done && !message.loading && (message.sources.length > 0 || message.messageId !== undefined) && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
            {message.sources.length > 0 ? (
              <Button size="small" onClick={onToggleSources} aria-expanded={sourcesOpen}>
                {sourcesOpen ? 'Hide Sources' : 'View Sources'} ({message.sources.length})
              </Button>
            ) : (
              <span />
            )}
            {message.messageId !== undefined && (
              <AnswerFeedback messageId={message.messageId} initial={message.feedback} />
            )}
          </Stack>
        )}
        {done && !message.loading && message.sources.length > 0 && (
          <>
            {sourcesOpen && (
              <SourcesPanel
                sources={message.sources}
                active={activeSource}
                onActivate={onActivateSource}
                providers={providers}
                label="Sources of the answer"
              />
            )}
          </>
        )}
        {done && !message.loading && (
          <RelatedSearches searches={message.relatedSearches ?? []} onSearch={onAsk} disabled={busy} />
        )}
      </Box>
    </Stack>
  );
}

/** The answer with each [n] a link to its source. */
function AnswerText({ text, count, onCite }: { text: string; count: number; onCite: (index: number) => void }) {
  return (
    <>
      {answerPieces(text).map((piece, i, pieces) =>
        'text' in piece ? (
          // A citation stays on its sentence's line.
          <Fragment key={i}>{i + 1 < pieces.length ? piece.text.replace(/ $/, '\u00a0') : piece.text}</Fragment>
        ) : piece.cite >= 1 && piece.cite <= count ? (
          <Link
            key={i}
            component="button"
            type="button"
            variant="body2"
            onClick={() => onCite(piece.cite - 1)}
            aria-label={`Source ${piece.cite}`}
            sx={{ verticalAlign: 'baseline', fontWeight: 600 }}
          >
            [{piece.cite}]
          </Link>
        ) : (
          <Fragment key={i}>[{piece.cite}]</Fragment>
        ),
      )}
    </>
  );
}

function MessageTime({ date, align }: { date: Date; align: 'left' | 'right' }) {
  return (
    <Typography variant="caption" color="text.secondary" component="div" sx={{ textAlign: align, mt: 0.25 }}>
      {formatMessageTime(date)}
    </Typography>
  );
}
