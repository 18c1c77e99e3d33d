import AddCommentOutlined from '@mui/icons-material/AddCommentOutlined';
import ArrowUpwardOutlined from '@mui/icons-material/ArrowUpwardOutlined';
import StopOutlined from '@mui/icons-material/StopOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AssistantReply } from '../../api/assistant';
import type { Provider } from '../../api/monitor';
import { useAskAssistant } from '../../hooks/useAssistant';
import { useProvidersQuery } from '../../hooks/useMonitorQueries';
import { useProfile } from '../../hooks/useProfileQuery';
import {
  APOLOGY,
  initials,
  isValidSource,
  LOADING_DELAY_MS,
  newSessionId,
  pickPrompts,
  SCROLL_THRESHOLD_PX,
  SCROLL_THROTTLE_MS,
  sessionId as heldSessionId,
} from '../../lib/assistant';
import { SideDrawer } from '../SideDrawer';
import { AnswerBubble, type ChatMessage, QuestionBubble } from './MessageBubble';

let nextId = 0;
const messageId = () => `m${++nextId}`;

/**
 * The natural-language assistant (search-side.md sections 2 and 4): questions answered from the
 * last 7 days of posts, every sentence citing its source.
 */
export function AssistantDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const profile = useProfile();
  const providersQuery = useProvidersQuery();
  const providers = useMemo(
    () => new Map<string, Provider>((providersQuery.data ?? []).map((p) => [p.name, p])),
    [providersQuery.data],
  );
  const ask = useAskAssistant();

  const [session, setSession] = useState(() => heldSessionId());
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [input, setInput] = useState('');
  const [prompts, setPrompts] = useState(() => pickPrompts());
  const [waiting, setWaiting] = useState(false);
  const [typingId, setTypingId] = useState<string | null>(null);
  const [openSources, setOpenSources] = useState<string | null>(null);
  const [activeSource, setActiveSource] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const scrolledUp = useRef(false);
  const lastScroll = useRef(0);
  const pendingScroll = useRef<number | undefined>(undefined);
  const loadingTimer = useRef<number | undefined>(undefined);
  const loading = waiting || typingId !== null;

  const stop = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    window.clearTimeout(loadingTimer.current);
    setMessages((all) => all.filter((m) => !m.loading));
    setWaiting(false);
    setTypingId(null); // the answer being typed shows whole
  }, []);

  useEffect(() => () => controller.current?.abort(), []);

  const answer = useCallback((text: string, sources: ChatMessage['sources'], stored?: AssistantReply) => {
    window.clearTimeout(loadingTimer.current);
    const id = messageId();
    setMessages((all) => [
      ...all.filter((m) => !m.loading),
      {
        id,
        text,
        question: false,
        date: new Date(),
        loading: false,
        sources,
        messageId: typeof stored?.id === 'number' && stored.id > 0 ? stored.id : undefined,
        relatedSearches: stored?.related_searches ?? [],
        feedback: null,
      },
    ]);
    setWaiting(false);
    setTypingId(id);
  }, []);

  const send = (question: string) => {
    const text = question.trim();
    if (!text) return;
    scrolledUp.current = false; // asking brings the conversation back to its end
    setMessages((all) => [
      ...all,
      { id: messageId(), text, question: true, date: new Date(), loading: false, sources: [] },
    ]);
    setInput('');
    setWaiting(true);
    const abort = new AbortController();
    controller.current = abort;
    // The loading bubble only when the answer is slow to come.
    loadingTimer.current = window.setTimeout(() => {
      setMessages((all) => [
        ...all,
        { id: messageId(), text: '', question: false, date: new Date(), loading: true, sources: [] },
      ]);
    }, LOADING_DELAY_MS);
    ask.mutate(
      { input: text, sessionId: session, signal: abort.signal },
      {
        onSuccess: (reply) => {
          if (abort.signal.aborted) return;
          controller.current = null;
          answer(reply?.response?.trim() || APOLOGY, (reply?.relevant_documents ?? []).filter(isValidSource), reply);
        },
        onError: () => {
          if (abort.signal.aborted) return;
          controller.current = null;
          answer(APOLOGY, []);
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (loading) stop();
    else send(input);
  };

  const newTopic = () => {
    stop();
    setMessages([]);
    setOpenSources(null);
    setActiveSource(null);
    setPrompts(pickPrompts());
    setSession(newSessionId());
  };

  // Smooth autoscroll to the newest message, at most every 300 ms, unless the user scrolled up.
  const scrollToEnd = useCallback(() => {
    const el = list.current;
    if (!el || scrolledUp.current) return;
    const run = () => {
      pendingScroll.current = undefined;
      if (scrolledUp.current) return; // the user scrolled up while this one waited
      lastScroll.current = Date.now();
      el.scrollTo?.({ top: el.scrollHeight, behavior: 'smooth' });
    };
    const wait = SCROLL_THROTTLE_MS - (Date.now() - lastScroll.current);
    if (wait <= 0) run();
    else if (pendingScroll.current === undefined) pendingScroll.current = window.setTimeout(run, wait);
  }, []);
  useEffect(() => () => window.clearTimeout(pendingScroll.current), []);
  useEffect(() => {
    scrollToEnd();
  }, [messages.length, scrollToEnd]);
  // Only the user scrolls up: a smooth scroll on its way down passes through "far from the end"
  // without meaning it.
  const lastTop = useRef(0);
  const onScroll = () => {
    const el = list.current;
    if (!el) return;
    const fromEnd = el.scrollHeight - el.scrollTop - el.clientHeight;
    if (fromEnd <= SCROLL_THRESHOLD_PX) scrolledUp.current = false;
    else if (el.scrollTop < lastTop.current) scrolledUp.current = true;
    lastTop.current = el.scrollTop;
  };

  const onTyped = useCallback(() => {
    setTypingId(null);
    scrollToEnd();
  }, [scrollToEnd]);

  const userInitials = initials(profile.name || profile.email);

  return (
    <SideDrawer
      open={open}
      onClose={onClose}
      title="Assist"
      closeLabel="Close the assistant"
      width={520}
      actions={
        <Button startIcon={<AddCommentOutlined />} onClick={newTopic} sx={{ mr: 1 }}>
          New topic
        </Button>
      }
    >
      <Box
        ref={list}
        onScroll={onScroll}
        sx={{ flex: 1, overflowY: 'auto', px: 2, py: 2 }}
        role="log"
        aria-label="Conversation with the assistant"
        aria-live="polite"
      >
        {messages.length === 0 ? (
          <Box sx={{ pt: 2 }}>
            <Typography variant="h4" component="h3" gutterBottom>
              Ask about the last 7 days of posts
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              The assistant answers from posts your subscriptions include, and cites the post behind every sentence. Try
              one of these:
            </Typography>
            <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
              {prompts.map((prompt) => (
                <Chip
                  key={prompt}
                  label={prompt}
                  onClick={() => send(prompt)}
                  variant="outlined"
                  sx={{ height: 'auto', py: 0.75, '& .MuiChip-label': { whiteSpace: 'normal' } }}
                />
              ))}
            </Stack>
          </Box>
        ) : (
          <Stack spacing={2}>
            {messages.map((m) =>
              m.question ? (
                <QuestionBubble key={m.id} message={m} initials={userInitials} />
              ) : (
                <AnswerBubble
                  key={m.id}
                  message={m}
                  typing={typingId === m.id}
                  onTyped={onTyped}
                  onGrow={scrollToEnd}
                  sourcesOpen={openSources === m.id}
                  onToggleSources={() => {
                    setOpenSources(openSources === m.id ? null : m.id);
                    setActiveSource(null);
                  }}
                  activeSource={openSources === m.id ? activeSource : null}
                  onActivateSource={(index) => {
                    setOpenSources(m.id);
                    setActiveSource(index === null || (index === activeSource && openSources === m.id) ? null : index);
                  }}
                  providers={providers}
                  onAsk={send}
                  busy={loading}
                />
              ),
            )}
          </Stack>
        )}
      </Box>
      <Box component="form" onSubmit={submit} sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-end' }}>
          <TextField
            value={input}
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                event.currentTarget.closest('form')?.requestSubmit();
              }
            }}
            placeholder="Ask a question about recent posts"
            label="Your question"
            multiline
            maxRows={5}
            fullWidth
            size="small"
            slotProps={{ htmlInput: { maxLength: 1000 } }}
          />
          {(input.trim() !== '' || loading) && (
            <Tooltip title={loading ? 'Stop' : 'Ask'}>
              <IconButton type="submit" color="primary" aria-label={loading ? 'Stop' : 'Ask'}>
                {loading ? <StopOutlined /> : <ArrowUpwardOutlined />}
              </IconButton>
            </Tooltip>
          )}
        </Stack>
      </Box>
    </SideDrawer>
  );
}
