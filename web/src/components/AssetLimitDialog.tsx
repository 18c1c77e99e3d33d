import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useProfile } from '../hooks/useProfileQuery';
import type { AssetLimit } from '../lib/assetLimit';
import { contactHref, supportAddress } from '../lib/support';

/**
 * The Asset Limit Reached dialog (monitor-area.md section 8): the server's title and
 * description, a way to contact support and Close. Open while limit is not null.
 */
export function AssetLimitDialog({ limit, onClose }: { limit: AssetLimit | null; onClose: () => void }) {
  const profile = useProfile();
  const titleId = useId();
  return (
    <Dialog open={limit !== null} onClose={onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{limit?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{limit?.description}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button href={contactHref(supportAddress(profile))}>Contact support</Button>
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
