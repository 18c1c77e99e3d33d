import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Fragment, useId } from 'react';
import { useAnnouncementsQuery } from '../hooks/useAnnouncementQueries';
import { formatDateTime } from '../lib/dateRange';

/** The tenant's announcements, newest first. */
export function AnnouncementsPopover({
  anchor,
  onClose,
  fresh,
}: {
  anchor: HTMLElement | null;
  onClose: () => void;
  fresh: ReadonlySet<number>;
}) {
  const titleId = useId();
  const { data, isError } = useAnnouncementsQuery();
  const list = data?.announcements ?? [];
  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: 360, mt: 1, maxHeight: 480 } } }}
    >
      <Typography id={titleId} variant="h5" component="h2" sx={{ px: 2.5, pt: 2, pb: 1 }}>
        Announcements
      </Typography>
      {list.length === 0 ? (
        <Stack spacing={1.5} sx={{ p: 3, pt: 1, alignItems: 'center', textAlign: 'center' }}>
          <CampaignOutlined color="disabled" sx={{ fontSize: 40 }} />
          <Typography variant="body2" color="text.secondary">
            {isError
              ? 'Announcements could not be loaded. Close this and try again in a moment.'
              : 'There are no announcements right now. Your tenant administrators post news for everyone here.'}
          </Typography>
        </Stack>
      ) : (
        <List aria-labelledby={titleId} sx={{ pt: 0 }}>
          {list.map((a, i) => (
            <Fragment key={a.id}>
              {i > 0 && <Divider component="li" />}
              <ListItem sx={{ display: 'block', px: 2.5, py: 1.5 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography variant="subtitle2" component="h3" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
                    {a.title}
                  </Typography>
                  {fresh.has(a.id) && <Chip size="small" color="primary" label="New" />}
                </Stack>
                <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {a.body}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatDateTime(new Date(a.created_at))}
                  {a.author && ` · ${a.author}`}
                </Typography>
              </ListItem>
            </Fragment>
          ))}
        </List>
      )}
    </Popover>
  );
}
