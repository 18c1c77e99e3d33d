import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { type Language, TRANSLATION_LANGUAGES, WEB_NEWS_LANGUAGES } from '../../lib/translate/languages';

const NEWS = new Set(WEB_NEWS_LANGUAGES.map((l) => l.code));
const NEWS_GROUP = 'Languages of web news';
const OTHER_GROUP = 'Other languages';
const groupOf = (l: Language) => (NEWS.has(l.code) ? NEWS_GROUP : OTHER_GROUP);

// The ~105 languages to translate into, those web news is published in first: a keyword in one
// of the others can match social posts only.
const OPTIONS: Language[] = [...TRANSLATION_LANGUAGES].sort(
  (a, b) => Number(!NEWS.has(a.code)) - Number(!NEWS.has(b.code)) || a.name.localeCompare(b.name),
);
const byCode = new Map(OPTIONS.map((l) => [l.code, l]));

interface Common {
  label: string;
  helperText?: string;
  error?: boolean;
  disablePortal?: boolean;
}

/** One language to translate into, by code. */
export function LanguageField({
  value,
  onChange,
  ...common
}: Common & { value: string | null; onChange: (code: string | null) => void }) {
  return (
    <Autocomplete
      size="small"
      options={OPTIONS}
      groupBy={groupOf}
      getOptionLabel={(l) => l.name}
      isOptionEqualToValue={(a, b) => a.code === b.code}
      value={(value && byCode.get(value)) || null}
      onChange={(_event, chosen) => onChange(chosen?.code ?? null)}
      disablePortal={common.disablePortal}
      renderInput={(params) => (
        <TextField {...params} label={common.label} helperText={common.helperText} error={common.error} />
      )}
    />
  );
}

/** Languages to translate into, by code. */
export function LanguagesField({
  value,
  onChange,
  ...common
}: Common & { value: readonly string[]; onChange: (codes: string[]) => void }) {
  return (
    <Autocomplete
      multiple
      size="small"
      options={OPTIONS}
      groupBy={groupOf}
      getOptionLabel={(l) => l.name}
      isOptionEqualToValue={(a, b) => a.code === b.code}
      value={value.flatMap((code) => byCode.get(code) ?? [])}
      onChange={(_event, chosen) => onChange(chosen.map((l) => l.code))}
      disableCloseOnSelect
      disablePortal={common.disablePortal}
      renderInput={(params) => (
        <TextField {...params} label={common.label} helperText={common.helperText} error={common.error} />
      )}
    />
  );
}
