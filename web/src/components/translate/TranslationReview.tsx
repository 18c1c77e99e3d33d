import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ReviewRow } from '../../lib/translate/review';

/** Translations to look over before they join a search: each keyword's, each one removable. */
export function TranslationReview({
  rows,
  onRemove,
  label,
}: {
  rows: readonly ReviewRow[];
  onRemove: (id: string) => void;
  label: string;
}) {
  return (
    <Box
      component="dl"
      aria-label={label}
      sx={{ display: 'grid', gridTemplateColumns: 'minmax(6rem, max-content) 1fr', columnGap: 2, rowGap: 1, m: 0 }}
    >
      {rows.map((row) => (
        <Box key={row.keyword} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ fontWeight: 600, overflowWrap: 'anywhere', pt: 0.5 }}>
            {row.keyword}
          </Box>
          <Box component="dd" sx={{ m: 0, display: 'flex', flexWrap: 'wrap', gap: 0.75, alignItems: 'center' }}>
            {row.items.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {row.empty}
              </Typography>
            ) : (
              row.items.map((item) => {
                const text = item.note ? `${item.phrase} (${item.note})` : item.phrase;
                return (
                  <Chip
                    key={item.id}
                    size="small"
                    variant="outlined"
                    label={text}
                    aria-label={`Remove ${text}`}
                    onClick={() => onRemove(item.id)}
                    onDelete={() => onRemove(item.id)}
                  />
                );
              })
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
