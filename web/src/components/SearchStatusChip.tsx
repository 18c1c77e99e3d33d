import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { SearchStatus } from '../api/monitor';

const statuses: Record<
  SearchStatus,
  { label: string; color: 'success' | 'warning' | 'info' | 'default'; help: string }
> = {
  active: { label: 'Active', color: 'success', help: 'Collecting matches as posts arrive.' },
  paused: {
    label: 'Paused',
    color: 'warning',
    help: 'Collecting nothing until resumed; posts published meanwhile may be lost.',
  },
  scheduled: { label: 'Scheduled', color: 'info', help: 'Starts by itself on its start date.' },
  ended: { label: 'Ended', color: 'default', help: 'Its end date has passed; its matches stay for 30 days.' },
  expired: { label: 'Results expired', color: 'default', help: 'Ended more than 30 days ago; its matches are gone.' },
};

export function SearchStatusChip({ status }: { status: SearchStatus }) {
  const { label, color, help } = statuses[status];
  return (
    <Tooltip title={help}>
      <Chip size="small" color={color} variant={color === 'default' ? 'outlined' : 'filled'} label={label} />
    </Tooltip>
  );
}
