import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/** Product announcements; none are published yet, and the popover says so. */
export function AnnouncementsPopover({ anchor, onClose }: { anchor: HTMLElement | null; onClose: () => void }) {
  const titleId = useId();
  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: 320, mt: 1 } } }}
    >
      <Stack spacing={1.5} sx={{ p: 3, alignItems: 'center', textAlign: 'center' }}>
        <CampaignOutlined color="disabled" sx={{ fontSize: 40 }} />
        <Typography id={titleId} variant="h5" component="h2">
          Announcements
        </Typography>
        <Typography variant="body2" color="text.secondary">
          There are no announcements right now. News about Sightline will appear here.
        </Typography>
      </Stack>
    </Popover>
  );
}
