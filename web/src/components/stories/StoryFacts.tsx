import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Count } from '../../api/stories';

/** A story's sources or languages as a labelled list of chips, each with its count of posts. */
export function StoryCounts({
  title,
  counts,
  nameOf,
}: {
  title: string;
  counts: Count[];
  nameOf: (name: string) => string;
}) {
  const sorted = [...counts].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
      <Typography variant="body2" color="text.secondary">
        {title}
      </Typography>
      <Stack
        component="ul"
        aria-label={title}
        direction="row"
        sx={{ listStyle: 'none', m: 0, p: 0, gap: 0.5, flexWrap: 'wrap' }}
      >
        {sorted.map(({ name, count }) => (
          <li key={name}>
            <Chip size="small" variant="outlined" label={`${nameOf(name)} ${count}`} />
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
