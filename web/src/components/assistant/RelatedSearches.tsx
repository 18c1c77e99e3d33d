import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/**
 * The searches related to an answer's question, drawn by the server from the posts the question
 * found (docs/assistant.md); choosing one asks it.
 */
export function RelatedSearches({
  searches,
  onSearch,
  disabled = false,
}: {
  searches: string[];
  onSearch: (search: string) => void;
  disabled?: boolean;
}) {
  const heading = useId();
  if (searches.length === 0) return null;
  return (
    <Box component="section" aria-labelledby={heading} sx={{ mt: 1 }}>
      <Typography id={heading} variant="caption" component="h4" color="text.secondary" sx={{ fontWeight: 600 }}>
        Related searches
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 0.5, display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
        {searches.map((search) => (
          <li key={search}>
            <Chip
              icon={<SearchOutlined />}
              label={search}
              size="small"
              variant="outlined"
              onClick={() => onSearch(search)}
              disabled={disabled}
              sx={{ height: 'auto', py: 0.5, '& .MuiChip-label': { whiteSpace: 'normal' } }}
            />
          </li>
        ))}
      </Box>
    </Box>
  );
}
