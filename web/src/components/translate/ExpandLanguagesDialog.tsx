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
import { useId, useMemo, useState } from 'react';
import { useKeywordTranslator } from '../../hooks/useTranslation';
import { keywordProblems } from '../../lib/searchForm';
import { expandQuery, sameKeyword, translatableTerms } from '../../lib/translate/expand';
import { languageName } from '../../lib/translate/languages';
import { translatedPhrases } from '../../lib/translate/phrases';
import { LanguagesField } from './LanguageField';
import { type ReviewRow, withoutItem } from '../../lib/translate/review';
import { TranslationReview } from './TranslationReview';

/** Calls one expansion may make (keywords × languages): each is a call to the translation server. */
export const MAX_EXPANSION_TRANSLATIONS = 60;

/**
 * "Expand to languages" (issue 15): every keyword of the search translated into the chosen
 * languages, shown for review (each translation removable), then added: each keyword becomes
 * (keyword OR its translations). The result must pass the builder's own keyword rules.
 */
export function ExpandLanguagesDialog({
  query,
  onApply,
  onClose,
}: {
  query: string;
  onApply: (query: string) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const terms = useMemo(() => translatableTerms(query), [query]);
  const [languages, setLanguages] = useState<string[]>([]);
  const [rows, setRows] = useState<ReviewRow[] | null>(null);
  const translator = useKeywordTranslator();
  const calls = terms.length * languages.length;
  const tooMany = calls > MAX_EXPANSION_TRANSLATIONS;

  const translate = async () => {
    setRows(null);
    const requests = terms.flatMap((keyword) => languages.map((target) => ({ keyword, target })));
    const texts = await translator.translate(requests);
    if (!texts) return;
    setRows(
      terms.map((keyword) => ({
        keyword,
        empty: 'The same in every language chosen',
        items: requests.flatMap((r, i) =>
          r.keyword !== keyword
            ? []
            : translatedPhrases(texts[i] ?? '')
                .filter((p) => !sameKeyword(p, keyword))
                .map((phrase) => ({
                  id: `${keyword}\u0000${r.target}\u0000${phrase}`,
                  phrase,
                  note: languageName(r.target),
                })),
        ),
      })),
    );
  };

  const expanded = useMemo(
    () => (rows ? expandQuery(query, new Map(rows.map((r) => [r.keyword, r.items.map((i) => i.phrase)]))) : query),
    [rows, query],
  );
  const problems = rows ? keywordProblems(expanded) : [];
  const remove = (id: string) => setRows((current) => current && withoutItem(current, id));
  const changed = expanded !== query;

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Expand to languages</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="body2">
            Each keyword is translated into the languages you choose. Look over the translations, remove any that are
            wrong, then add them: each keyword becomes <code>(keyword OR its translations)</code>.
          </Typography>
          {terms.length === 0 ? (
            <Alert severity="info">
              The search has no keywords to translate. Words with wildcards or ~ stay as they are.
            </Alert>
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              <strong>Keywords:</strong> {terms.join(', ')}
            </Typography>
          )}
          <LanguagesField
            label="Languages"
            value={languages}
            onChange={(codes) => {
              setLanguages(codes);
              setRows(null);
            }}
            helperText={
              tooMany
                ? `At most ${MAX_EXPANSION_TRANSLATIONS} translations at once: ${terms.length} keywords in ${languages.length} languages make ${calls}.`
                : ' '
            }
            error={tooMany}
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button
              variant="outlined"
              onClick={() => void translate()}
              disabled={terms.length === 0 || languages.length === 0 || tooMany || translator.pending}
            >
              Translate
            </Button>
            {translator.pending && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
                <CircularProgress size={16} aria-hidden />
                <Typography variant="body2" color="text.secondary">
                  Translating {calls === 1 ? '1 keyword' : `${calls} keywords`}…
                </Typography>
                <Button size="small" onClick={translator.cancel}>
                  Cancel
                </Button>
              </Stack>
            )}
          </Stack>
          {rows && (
            <>
              <TranslationReview rows={rows} label="Translations to add" onRemove={(id) => remove(id)} />
              <Box>
                <Typography variant="overline" color="text.secondary" component="p">
                  The search will read
                </Typography>
                <Typography component="p" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                  {expanded}
                </Typography>
              </Box>
              {problems.length > 0 && <Alert severity="error">{problems.join(' ')}</Alert>}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!rows || !changed || problems.length > 0}
          onClick={() => {
            onApply(expanded);
            onClose();
          }}
        >
          Add to search
        </Button>
      </DialogActions>
    </Dialog>
  );
}
