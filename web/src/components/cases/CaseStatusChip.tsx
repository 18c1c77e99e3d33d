import Chip from '@mui/material/Chip';
import { CASE_STATUS_LABELS, type CaseStatus } from '../../api/cases';

const colors = { open: 'info', in_progress: 'warning', closed: 'default' } as const;

/** Where a case stands, as a small chip. */
export function CaseStatusChip({ status }: { status: CaseStatus }) {
  return <Chip size="small" variant="outlined" color={colors[status]} label={CASE_STATUS_LABELS[status]} />;
}
