import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import { visuallyHidden } from '../../lib/visuallyHidden';

/** The header of a table's row-actions column: named for screen readers, blank on screen. */
export function ActionsHeaderCell() {
  return (
    <TableCell align="right">
      <Box component="span" sx={visuallyHidden}>
        Actions
      </Box>
    </TableCell>
  );
}
