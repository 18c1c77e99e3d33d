import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** One row of a list of groups or searches: a bordered card laid out in a line. */
export function ItemRow({ children }: { children: ReactNode }) {
  return (
    <Box
      component="li"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        px: 2,
        py: 1.25,
        bgcolor: 'background.paper',
        border: 1,
        borderColor: 'divider',
        borderRadius: 2,
      }}
    >
      {children}
    </Box>
  );
}
