import MailOutlineOutlined from '@mui/icons-material/MailOutlineOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { contactHref } from '../lib/support';

/** The shared frame of the 404, loading-error and search-error pages. */
export function ErrorPage({
  icon: Icon,
  title,
  message,
  code,
  action,
  supportEmail,
  headingLevel = 'h1',
}: {
  icon: SvgIconComponent;
  title: string;
  message: string;
  /** An HTTP status; shown only when above 0. */
  code: number;
  action: ReactNode;
  supportEmail?: string;
  /** h2 when the page is a pane inside a screen that has its own title. */
  headingLevel?: 'h1' | 'h2';
}) {
  return (
    <Box sx={{ minHeight: '100%', display: 'grid', placeItems: 'center', p: 3 }}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 520 }}>
        <Box
          sx={(theme) => ({
            width: 96,
            height: 96,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            color: 'primary.main',
            bgcolor: alpha(theme.palette.primary.main, 0.1),
          })}
        >
          <Icon sx={{ fontSize: 48 }} />
        </Box>
        {code > 0 && (
          <Typography variant="overline" color="text.secondary">
            Error {code}
          </Typography>
        )}
        <Typography variant="h1" component={headingLevel}>
          {title}
        </Typography>
        <Typography color="text.secondary">{message}</Typography>
        <Stack direction="row" spacing={1.5} sx={{ pt: 1 }}>
          {action}
          <Button variant="outlined" href={contactHref(supportEmail)} startIcon={<MailOutlineOutlined />}>
            Contact support
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
