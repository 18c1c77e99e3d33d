import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import type { CaseEventReply } from '../../api/cases';

/** Every change to the case, newest first: who did what, when. */
export function CaseTimeline({ events }: { events: CaseEventReply[] }) {
  return (
    <List dense aria-label="Timeline" tabIndex={0} sx={{ maxHeight: 360, overflowY: 'auto' }}>
      {[...events].reverse().map((e) => (
        <ListItem key={e.id} disableGutters>
          <ListItemText
            primary={`${e.actor || 'Someone'} ${e.summary}`}
            secondary={new Date(e.createdAt).toLocaleString()}
          />
        </ListItem>
      ))}
    </List>
  );
}
