import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { SourcePreview } from '../../api/sources';
import { formatDateTime } from '../../lib/dateRange';

/** What a test fetch found: the posts that would be stored, or why there are none. */
export function SourcePreviewList({ preview }: { preview: SourcePreview }) {
  if (!preview.ok) {
    return <Alert severity="error">The test fetch failed: {preview.error}</Alert>;
  }
  if (preview.items.length === 0) {
    return <Alert severity="info">The source answered, with nothing new to store right now.</Alert>;
  }
  return (
    <section aria-label="Preview">
      <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
        {preview.items.length === 1 ? 'One post would be stored' : `${preview.items.length} posts would be stored`}{' '}
        (nothing was stored)
      </Typography>
      <List dense sx={{ maxHeight: 260, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {preview.items.map((item) => (
          <ListItem key={`${item.provider}/${item.native_id}`} divider>
            <ListItemText
              primary={
                item.post_link ? (
                  <Link href={item.post_link} target="_blank" rel="noopener noreferrer">
                    {item.title_text || item.content_text?.slice(0, 140) || item.native_id}
                  </Link>
                ) : (
                  item.title_text || item.content_text?.slice(0, 140) || item.native_id
                )
              }
              secondary={`${item.provider} · ${formatDateTime(new Date(item.published_at))}${item.author_name ? ` · ${item.author_name}` : ''}`}
            />
          </ListItem>
        ))}
      </List>
    </section>
  );
}
