import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { SourceHealth } from '../../api/sources';
import { stateLabels } from './sourceFormat';

/** A source's state; its message on hover. */
export function SourceStateChip({ health }: { health: SourceHealth }) {
  const { label, color } = stateLabels[health.state] ?? stateLabels.pending;
  const chip = <Chip size="small" label={label} color={color} variant={color === 'default' ? 'outlined' : 'filled'} />;
  return health.message ? (
    <Tooltip title={health.message}>
      <span>{chip}</span>
    </Tooltip>
  ) : (
    chip
  );
}
