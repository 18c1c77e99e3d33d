import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useKeywordTranslator } from '../../hooks/useTranslation';
import { keywordList } from '../../lib/query';
import { sameKeyword } from '../../lib/translate/expand';
import { browserLanguage, languageName } from '../../lib/translate/languages';
import { appendKeywords, keywordsToTranslate, translatedPhrases } from '../../lib/translate/phrases';
import { LanguageField } from './LanguageField';
import { type ReviewRow, withoutItem } from '../../lib/translate/review';
import { TranslationReview } from './TranslationReview';

/**
 * The keyword translation helper (search-side.md section 4): keywords translated into a language,
 * looked over, then added to the search joined with OR.
 */
export function KeywordTranslator({
  query,
  onChange,
  disablePortal,
}: {
  query: string;
  /** The search with the translations added. */
  onChange: (query: string) => void;
  /** Inside a panel that closes on outside clicks, the language list stays in it. */
  disablePortal?: boolean;
}) {
  const [text, setText] = useState(() => keywordList(query).join(', '));
  const [target, setTarget] = useState<string | null>(() => {
    const browser = browserLanguage();
    return browser === 'en' ? null : browser;
  });
  const [rows, setRows] = useState<ReviewRow[] | null>(null);
  const translator = useKeywordTranslator();
  const keywords = keywordsToTranslate(text);

  const translate = async () => {
    if (!target || keywords.length === 0) return;
    setRows(null);
    const texts = await translator.translate(keywords.map((keyword) => ({ keyword, target })));
    if (!texts) return;
    setRows(
      keywords.map((keyword, i) => ({
        keyword,
        empty: `The same in ${languageName(target)}`,
        items: translatedPhrases(texts[i] ?? '')
          .filter((p) => !sameKeyword(p, keyword))
          .map((phrase) => ({ id: `${keyword}\u0000${phrase}`, phrase })),
      })),
    );
  };
  const chosen = rows?.flatMap((r) => r.items.map((i) => i.phrase)) ?? [];

  return (
    <Stack
      spacing={1.5}
      role="group"
      aria-label="Translate keywords"
      onKeyDown={(event) => {
        // Enter in a field here translates; it must not submit the search form around the helper.
        if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
        event.preventDefault();
        if (event.target.getAttribute('role') !== 'combobox') void translate();
      }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          size="small"
          fullWidth
          label="Keywords to translate"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setRows(null);
          }}
          helperText="Separate keywords with commas or OR"
        />
        <Box sx={{ minWidth: 220 }}>
          <LanguageField
            label="Into"
            value={target}
            onChange={(code) => {
              setTarget(code);
              setRows(null);
            }}
            disablePortal={disablePortal}
          />
        </Box>
        <Button
          variant="outlined"
          onClick={() => void translate()}
          disabled={!target || keywords.length === 0 || translator.pending}
          sx={{ flexShrink: 0, mt: { sm: '2px' } }}
        >
          Translate
        </Button>
      </Stack>
      {translator.pending && target && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={16} aria-hidden />
          <Typography variant="body2" color="text.secondary">
            Translating into {languageName(target)}…
          </Typography>
          <Button size="small" onClick={translator.cancel}>
            Cancel
          </Button>
        </Stack>
      )}
      {rows && target && (
        <>
          <TranslationReview
            rows={rows}
            label={`Translations into ${languageName(target)}`}
            onRemove={(id) => setRows((current) => current && withoutItem(current, id))}
          />
          <Box>
            <Button
              variant="contained"
              size="small"
              disabled={chosen.length === 0}
              onClick={() => {
                onChange(appendKeywords(query, chosen));
                setRows(null);
              }}
            >
              Add to search
            </Button>
          </Box>
        </>
      )}
    </Stack>
  );
}
