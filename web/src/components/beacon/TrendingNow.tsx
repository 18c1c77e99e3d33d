import TrendingUpOutlined from '@mui/icons-material/TrendingUpOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useBeaconTrendsQuery } from '../../hooks/useSpikeQueries';

/** Beacon's "Trending now": terms rising among every post the user may see; one runs a search. */
export function TrendingNow({ onSearch }: { onSearch: (query: string) => void }) {
  const query = useBeaconTrendsQuery();
  // Quiet when nothing trends or it cannot be read: the search box is what the page is for.
  if (!query.data || query.data.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="beacon-trending" sx={{ mt: 4 }}>
      <Typography id="beacon-trending" variant="overline" color="text.secondary" component="h2">
        Trending now
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
        {query.data.slice(0, 12).map((t) => (
          <Chip
            key={`${t.kind}:${t.term}`}
            icon={<TrendingUpOutlined />}
            label={`${t.term} · ${t.count}`}
            title={`${t.count} posts in the last hour, ${Math.round(t.share * 100)}% of them; ${(t.baselineShare * 100).toFixed(1)}% over the week before`}
            onClick={() => onSearch(t.kind === 'word' ? t.term : `"${t.term}"`)}
            clickable
            variant="outlined"
          />
        ))}
      </Stack>
    </Box>
  );
}
