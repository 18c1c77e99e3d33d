import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Trend } from '../../api/spikes';

const KIND_LABELS: Record<Trend['kind'], string> = { word: 'Word', hashtag: 'Hashtag', handle: 'Handle', place: 'Place' };

/** Emerging terms, best first, each with how far its share rose and the newest post behind it. */
export function TrendList({ trends, empty }: { trends: Trend[]; empty: string }) {
  if (trends.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {empty}
      </Typography>
    );
  }
  return (
    <List dense disablePadding aria-label="Trending terms">
      {trends.slice(0, 8).map((t) => (
        <ListItem key={`${t.kind}:${t.term}`} disableGutters>
          <ListItemText
            primary={
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography component="span" sx={{ fontWeight: 600 }}>
                  {t.term}
                </Typography>
                <Chip size="small" variant="outlined" label={KIND_LABELS[t.kind]} />
                <Typography component="span" variant="body2" color="text.secondary">
                  {t.count} posts · {Math.round(t.share * 100)}% now, {(t.baselineShare * 100).toFixed(1)}% before
                </Typography>
              </Stack>
            }
            secondary={t.samples[0] ? `${t.samples[0].author || t.samples[0].provider}: ${t.samples[0].text}` : undefined}
            slotProps={{ secondary: { noWrap: true } }}
          />
        </ListItem>
      ))}
    </List>
  );
}
