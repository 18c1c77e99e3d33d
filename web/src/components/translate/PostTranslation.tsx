import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import TranslateOutlined from '@mui/icons-material/TranslateOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { isCancelledError, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { translateKeys } from '../../api/keys';
import type { Post } from '../../api/monitor';
import { TRANSLATION_NOT_CONFIGURED } from '../../api/translate';
import { ApiError } from '../../api/transport';
import { profileQuery } from '../../hooks/useProfileQuery';
import { useSnackbar } from '../../hooks/useSnackbar';
import { postParts, postText, postTranslationQuery, sourceLanguage } from '../../hooks/useTranslation';
import { visuallyHidden } from '../../lib/visuallyHidden';
import {
  browserLanguage,
  languageName,
  menuLanguages,
  OFFERED_LANGUAGES,
  ORIGINAL,
} from '../../lib/translate/languages';

/** How long Copy says 'Copied' (section 4). */
export const COPIED_MS = 1000;

/**
 * The translate menu of a post card and the translation it shows (search-side.md section 4): the
 * translated title above the translated text, as the card shows the originals; each language
 * fetched once then cached, a loading state with Cancel, an error snackbar, Copy. With
 * the user's translation enrichment on, the card opens in the browser's language.
 */
export function PostTranslation({ post }: { post: Post }) {
  // The session gate has loaded the profile; a card drawn without it (a test) offers nothing.
  const { data: profile } = useQuery({ ...profileQuery, enabled: false });
  if (postText(post) === '' || !profile) return null;
  if (!profile.translation) return <TranslationOff />;
  return <Translator post={post} enrichment={profile.is_translation_enrichment_enabled} />;
}

/** The control where translation would be: why it is off is said on it, not printed on every card of a feed. */
function TranslationOff() {
  const reasonId = useId();
  return (
    <Box>
      <Tooltip title={TRANSLATION_NOT_CONFIGURED}>
        <span>
          <Button size="small" startIcon={<TranslateOutlined />} disabled aria-describedby={reasonId}>
            Translate
          </Button>
        </span>
      </Tooltip>
      <Box component="span" id={reasonId} sx={visuallyHidden}>
        {TRANSLATION_NOT_CONFIGURED}
      </Box>
    </Box>
  );
}

function Translator({ post, enrichment }: { post: Post; enrichment: boolean }) {
  const parts = postParts(post);
  const browser = browserLanguage();
  const source = sourceLanguage(post.language);
  const [language, setLanguage] = useState(() =>
    enrichment && source !== undefined && source !== browser ? browser : ORIGINAL,
  );
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [copied, setCopied] = useState(false);
  const copiedTimer = useRef<number | undefined>(undefined);
  const menuId = useId();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();

  const wanted = language !== ORIGINAL;
  const query = useQuery({ ...postTranslationQuery(post.id, parts, source, language), enabled: wanted });
  // A failed translation shows the original; the failure was said when the user asked for it.
  const translating = wanted && !(query.isError && !query.isFetching);

  useEffect(() => () => window.clearTimeout(copiedTimer.current), []);

  const choose = (code: string) => {
    setAnchor(null);
    setCopied(false);
    setLanguage(code);
    if (code === ORIGINAL) return;
    queryClient.fetchQuery(postTranslationQuery(post.id, parts, source, code)).catch((error: unknown) => {
      if (isCancelledError(error) || (error instanceof ApiError && error.canceled)) return;
      snackbar.show({ text: error instanceof Error ? error.message : String(error), color: 'error' });
      setLanguage(ORIGINAL);
    });
  };
  const cancel = () => {
    void queryClient.cancelQueries({ queryKey: translateKeys.post(post.id) });
    setLanguage(ORIGINAL);
  };
  const copy = async () => {
    if (!query.data) return;
    try {
      await navigator.clipboard.writeText(
        postText({ title_text: query.data.translatedTitle, content_text: query.data.translatedText }),
      );
    } catch {
      snackbar.show({ text: 'Could not copy to the clipboard.', color: 'error' });
      return;
    }
    setCopied(true);
    window.clearTimeout(copiedTimer.current);
    copiedTimer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
  };

  return (
    <Box>
      <Button
        size="small"
        startIcon={<TranslateOutlined />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {translating ? languageName(language) : 'Translate'}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {menuLanguages(browser).map((code) => (
          <MenuItem key={code} selected={code === language} onClick={() => choose(code)}>
            {languageName(code)}
            {code === browser && !(OFFERED_LANGUAGES as readonly string[]).includes(code) ? ' (your browser)' : ''}
          </MenuItem>
        ))}
        <MenuItem selected={!translating} onClick={() => choose(ORIGINAL)}>
          Original
        </MenuItem>
      </Menu>
      {translating && (
        <Box
          role="region"
          aria-label={`Translation to ${languageName(language)}`}
          aria-busy={query.isFetching}
          sx={{ mt: 0.5, pl: 1.25, borderLeft: 3, borderColor: 'primary.light' }}
        >
          {query.isFetching || !query.data ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <CircularProgress size={16} aria-label={`Translating to ${languageName(language)}`} />
              <Typography variant="body2" color="text.secondary">
                Translating to {languageName(language)}…
              </Typography>
              <Button size="small" onClick={cancel}>
                Cancel
              </Button>
            </Stack>
          ) : (
            <>
              <Typography variant="caption" color="text.secondary" component="p">
                {source ? `Translated from ${languageName(source)}` : 'Translated'} to {languageName(language)}
              </Typography>
              {query.data.translatedTitle && (
                <Typography
                  variant="subtitle2"
                  component="p"
                  sx={{ fontWeight: 650, overflowWrap: 'anywhere' }}
                  lang={language}
                >
                  {query.data.translatedTitle}
                </Typography>
              )}
              {query.data.translatedText && (
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lang={language}>
                  {query.data.translatedText}
                </Typography>
              )}
              <Button size="small" startIcon={<ContentCopyOutlined />} onClick={() => void copy()} aria-live="polite">
                {copied ? 'Copied' : 'Copy'}
              </Button>
            </>
          )}
        </Box>
      )}
    </Box>
  );
}
