import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { darken, type Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useServerTranslates } from '../../hooks/useProfileQuery';
import { type Mark, operatorMarks } from '../../lib/operatorMarks';
import { validateQuery } from '../../lib/query';
import { KeywordTranslator } from '../translate/KeywordTranslator';

// The theme's dark orange reads at 3.8:1 on white, under the 4.5:1 small text needs; on the dark
// theme the light orange reads well.
const WARNING_TEXT = (theme: Theme) =>
  theme.palette.mode === 'light' ? darken(theme.palette.warning.dark, 0.25) : theme.palette.warning.light;

/** Close requests this soon after the panel opened are the click that opened it. */
const OPEN_GRACE_MS = 200;

const BASIC_HINTS: [string, string][] = [
  ['flood AND bridge', 'both words (a space does the same)'],
  ['flood OR storm', 'either word'],
  ['-ferry', 'leaves out posts with the word'],
  ['"river crossing"', 'the exact phrase'],
];

const ADVANCED_HINTS: [string, string][] = [
  ['colo?r', 'one character of any kind'],
  ['protest*', 'any ending: protests, protester'],
  ['colour~1', 'similar spellings, up to 1 letter apart'],
  ['"bridge closed"~3', 'the words at most 3 apart'],
  ['(flood OR storm) AND bridge', 'brackets group operators'],
];

/**
 * Beacon's search bar: the text, Search and Clear all, and a help panel under it while it has
 * focus (hints while empty, the typed operators highlighted after). The query is checked as
 * the builder checks it; errors stop the search, the lowercase and/or warning does not.
 */
export function BeaconSearchBar({
  initialQuery,
  allowEmpty = false,
  onSearch,
  onClear,
  onBreachSearch,
  autoFocus = false,
}: {
  initialQuery: string;
  /** Other fields (authors, boards) carry the search, so empty text is fine. */
  allowEmpty?: boolean;
  onSearch: (query: string) => void;
  onClear: () => void;
  onBreachSearch: () => void;
  autoFocus?: boolean;
}) {
  const [text, setText] = useState(initialQuery);
  const [submitted, setSubmitted] = useState(false);
  const [open, setOpen] = useState(false);
  const [advanced, setAdvanced] = useState(false);
  const [translating, setTranslating] = useState(false);
  const translates = useServerTranslates();
  const openedAt = useRef(0);
  const panelId = useId();

  const issues = validateQuery(text, 'beacon').filter((i) => !(allowEmpty && i.code === 'blank'));
  const error = issues.find((i) => i.severity === 'error');
  const warning = issues.find((i) => i.severity === 'warning');
  // A blank box is only an error once the user tries to search with it.
  const shownError = error && (error.code !== 'blank' || submitted) ? error.message : undefined;

  const show = () => {
    if (!open) openedAt.current = Date.now();
    setOpen(true);
  };
  const close = () => {
    if (Date.now() - openedAt.current >= OPEN_GRACE_MS) setOpen(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (error) return;
    setOpen(false);
    onSearch(text.trim());
  };

  return (
    <ClickAwayListener onClickAway={close}>
      <Box
        component="form"
        role="search"
        aria-label="Beacon search"
        onSubmit={submit}
        onBlur={(event) => {
          // Focus with nowhere to go (a control inside turned disabled or was removed, as the
          // translate helper's do) has not left; a click outside is the click-away's.
          const to = event.relatedTarget as Node | null;
          if (to !== null && !event.currentTarget.contains(to)) close();
        }}
        sx={{ position: 'relative' }}
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField
            fullWidth
            label="Search posts"
            placeholder="Keywords, phrases and operators, such as flood AND bridge"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setSubmitted(false);
            }}
            onFocus={show}
            error={Boolean(shownError)}
            helperText={shownError ?? (warning ? warning.message : ' ')}
            autoFocus={autoFocus}
            slotProps={{
              htmlInput: { 'aria-controls': open ? panelId : undefined },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchOutlined />
                  </InputAdornment>
                ),
              },
              formHelperText: { sx: warning && !shownError ? { color: WARNING_TEXT } : undefined },
            }}
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', pt: { sm: 1 } }}>
            <Button type="submit" variant="contained" size="large">
              Search
            </Button>
            <Button
              size="large"
              sx={{ whiteSpace: 'nowrap' }}
              onClick={() => {
                setText('');
                setSubmitted(false);
                openedAt.current = 0;
                setOpen(false);
                onClear();
              }}
            >
              Clear all
            </Button>
          </Stack>
        </Stack>
        {open && (
          <Paper
            id={panelId}
            elevation={6}
            role="region"
            aria-label="Search help"
            sx={{ position: 'absolute', zIndex: 10, left: 0, right: 0, mt: -2, p: 2, maxWidth: 720 }}
          >
            {text.trim() === '' ? (
              <Hints rows={BASIC_HINTS} />
            ) : (
              <Stack spacing={1}>
                <Typography variant="overline" color="text.secondary">
                  Your search
                </Typography>
                <Typography component="p" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                  {operatorMarks(text).map((m, i) => (
                    <MarkedText key={i} mark={m} />
                  ))}
                </Typography>
                {warning && <Alert severity="warning">{warning.message}</Alert>}
              </Stack>
            )}
            <FormControlLabel
              sx={{ mt: 1 }}
              control={<Switch checked={advanced} onChange={(event) => setAdvanced(event.target.checked)} />}
              label="Advanced operators"
            />
            {advanced && <Hints rows={ADVANCED_HINTS} />}
            {translates && (
              <>
                <FormControlLabel
                  sx={{ mt: 1 }}
                  control={<Switch checked={translating} onChange={(event) => setTranslating(event.target.checked)} />}
                  label="Translate keywords"
                />
                {translating && (
                  <Box sx={{ mt: 1 }}>
                    <KeywordTranslator
                      query={text}
                      onChange={(query) => {
                        setText(query);
                        setSubmitted(false);
                      }}
                      disablePortal
                    />
                  </Box>
                )}
              </>
            )}
            <Box sx={{ mt: 1 }}>
              <Button size="small" onClick={onBreachSearch}>
                Search data breaches by e-mail or domain
              </Button>
            </Box>
          </Paper>
        )}
      </Box>
    </ClickAwayListener>
  );
}

function Hints({ rows }: { rows: [string, string][] }) {
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
    >
      {rows.map(([example, meaning]) => (
        <Box key={example} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
            {example}
          </Box>
          <Box component="dd" sx={{ m: 0, color: 'text.secondary' }}>
            {meaning}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

const MARK_STYLE: Record<Mark['kind'], object | undefined> = {
  operator: { color: 'primary.main', fontWeight: 700 },
  lowercase: { color: WARNING_TEXT, fontWeight: 700, textDecoration: 'underline wavy' },
  phrase: { color: 'success.dark' },
  exclusion: { color: 'error.main' },
  plain: undefined,
};

function MarkedText({ mark }: { mark: Mark }) {
  const style = MARK_STYLE[mark.kind];
  if (!style) return <>{mark.text}</>;
  return (
    <Box component="span" sx={style} title={mark.kind === 'lowercase' ? 'Searched as a word' : undefined}>
      {mark.text}
    </Box>
  );
}
