import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { MonitorSearch } from '../../api/monitor';

/** After saving: a checkmark, the way to the search and to the dashboard filtered to it, and Done. */
export function SuccessStep({
  titleId,
  search,
  edited,
  onDone,
}: {
  titleId: string;
  search: MonitorSearch;
  edited: boolean;
  onDone: () => void;
}) {
  return (
    <>
      <DialogTitle id={titleId} sx={{ textAlign: 'center', pt: 4 }}>
        <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
          <CheckCircleOutlined color="success" sx={{ fontSize: 64 }} />
          <span>{edited ? 'Your changes are saved' : 'Your saved search is running'}</span>
        </Stack>
      </DialogTitle>
      <DialogContent sx={{ textAlign: 'center' }}>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          “{search.value}” collects matching posts as they arrive.
          {search.backfill?.status === 'running' &&
            ` Its inbox is being filled with the matching posts stored in the last ${search.backfill.days === 1 ? 'day' : `${search.backfill.days} days`}; no alert is sent for them.`}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ justifyContent: 'center' }}>
          <Link component={RouterLink} to={`/monitor/${search.id}`} onClick={onDone}>
            Open the search
          </Link>
          <Link component={RouterLink} to={`/monitor/dashboard?monitorSearchIds=${search.id}`} onClick={onDone}>
            See it on the dashboard
          </Link>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ justifyContent: 'center', pb: 3 }}>
        <Button variant="contained" onClick={onDone}>
          Done
        </Button>
      </DialogActions>
    </>
  );
}
