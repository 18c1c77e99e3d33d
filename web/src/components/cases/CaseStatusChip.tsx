import Circle from '@mui/icons-material/Circle';
import Chip from '@mui/material/Chip';
import { CASE_STATUS_LABELS, type CaseStatus } from '../../api/cases';

// The colour marks the dot only: the label keeps the text colour, readable in either theme.
const colors = { open: 'info.main', in_progress: 'warning.main', closed: 'text.disabled' } as const;

/** Where a case stands, as a small chip. */
export function CaseStatusChip({ status }: { status: CaseStatus }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<Circle />}
      label={CASE_STATUS_LABELS[status]}
      sx={{ '& .MuiChip-icon': { color: colors[status], fontSize: 10 } }}
    />
  );
}
