import type { SvgIconComponent } from '@mui/icons-material';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** What a screen shows while it has nothing to show: what will come here and what to do next. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  actions,
}: {
  icon: SvgIconComponent;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Stack
      spacing={2}
      sx={{
        alignItems: 'center',
        textAlign: 'center',
        py: { xs: 6, md: 10 },
        px: 3,
        border: 1,
        borderStyle: 'dashed',
        borderColor: 'divider',
        borderRadius: 3,
        bgcolor: 'background.paper',
      }}
    >
      <Box
        sx={(theme) => ({
          width: 72,
          height: 72,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          color: 'primary.main',
          bgcolor: alpha(theme.palette.primary.main, 0.1),
        })}
      >
        <Icon sx={{ fontSize: 36 }} />
      </Box>
      <Typography variant="h3" component="h2">
        {title}
      </Typography>
      <Typography color="text.secondary" component="div" sx={{ maxWidth: 560 }}>
        {children}
      </Typography>
      {actions && (
        <Stack direction="row" spacing={1.5} sx={{ pt: 1 }}>
          {actions}
        </Stack>
      )}
    </Stack>
  );
}
