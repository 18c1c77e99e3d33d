import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Suggestion } from '../../api/contracts.gen';
import { EmptyState } from '../EmptyState';

/** "15", or "about 1,200" for an estimate. */
function countOf(s: Suggestion): string {
  return `${s.countIsEstimate ? 'about ' : ''}${s.count.toLocaleString('en-GB')}`;
}

/**
 * Word forms and near spellings of the search's words that the stored posts hold, with what
 * each would find; a click searches with it. The server suggests them (docs/search-api.md,
 * Suggestions): exact matching stays the rule, nothing is changed without the user's click.
 */
export function SearchSuggestions({
  suggestions,
  onApply,
}: {
  suggestions: Suggestion[];
  onApply: (query: string) => void;
}) {
  if (suggestions.length === 0) return null;
  return (
    <Stack spacing={1} component="section" aria-label="Other forms of your words" sx={{ alignItems: 'center' }}>
      <Typography variant="body2" color="text.secondary">
        These forms of your words find more:
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, justifyContent: 'center' }}>
        {suggestions.map((s) => (
          <Button
            key={s.query}
            size="small"
            variant="outlined"
            onClick={() => onApply(s.query)}
            title={`Search ${s.query}`}
            aria-label={`Search with ${s.term} instead of ${s.replaces} (${countOf(s)} posts)`}
          >
            {s.term}: {countOf(s)}
          </Button>
        ))}
      </Stack>
    </Stack>
  );
}

/** The results of a tab that found nothing: what to try, and the server's suggestions. */
export function NoResults({
  label,
  suggestions,
  onApply,
}: {
  label: string;
  suggestions: Suggestion[];
  onApply: (query: string) => void;
}) {
  return (
    <EmptyState
      icon={SearchOffOutlined}
      title={`No posts in ${label} match`}
      actions={suggestions.length > 0 && <SearchSuggestions suggestions={suggestions} onApply={onApply} />}
    >
      Try fewer or broader words, a wider date range, or another tab.
    </EmptyState>
  );
}
