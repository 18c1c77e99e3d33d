import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import type { MatchedTerm } from '../../api/monitor';

const fieldNames: Record<MatchedTerm['field'], string> = { title: 'title', text: 'text', author: 'author' };

/** Why a post matched: each term of the search it holds, with where, as small chips. */
export function MatchedTerms({ terms }: { terms: MatchedTerm[] }) {
  if (terms.length === 0) return null;
  return (
    <Box
      component="ul"
      aria-label="Why it matched"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, listStyle: 'none', m: 0, p: 0 }}
    >
      {terms.map((t) => (
        <Box
          component="li"
          key={`${t.term} ${t.field}`}
          aria-label={`Matched ${t.term} in the ${fieldNames[t.field]}`}
          title={`${t.kind === 'author' ? 'Author' : `A ${t.kind} of the search`} found in the ${fieldNames[t.field]}`}
          sx={(theme) => ({
            display: 'inline-flex',
            alignItems: 'center',
            gap: 0.5,
            px: 0.75,
            py: 0.125,
            borderRadius: 1,
            fontSize: 12,
            lineHeight: 1.6,
            maxWidth: '100%',
            border: 1,
            borderColor: alpha(theme.palette.primary.main, 0.35),
            bgcolor: alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.06 : 0.16),
          })}
        >
          <Box
            component="span"
            sx={{ fontWeight: 650, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {t.term}
          </Box>
          <Box component="span" aria-hidden sx={{ color: 'text.secondary' }}>
            {fieldNames[t.field]}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
