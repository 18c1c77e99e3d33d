import CloseOutlined from '@mui/icons-material/CloseOutlined';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import { TOP_BAR_HEIGHT } from '../theme';

/** A titled panel that slides in from the right of the top bar, named for assistive technology. */
export function SideDrawer({
  open,
  onClose,
  title,
  closeLabel,
  width,
  actions,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  closeLabel: string;
  width: number;
  /** Controls beside the close button. */
  actions?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: { xs: '100%', sm: width } } } }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', px: 3, height: TOP_BAR_HEIGHT, flexShrink: 0 }}>
        <Typography id={titleId} variant="h3" component="h2" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {actions}
        <IconButton aria-label={closeLabel} onClick={onClose} edge="end">
          <CloseOutlined />
        </IconButton>
      </Stack>
      <Divider />
      {children}
    </Drawer>
  );
}
