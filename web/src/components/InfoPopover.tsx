import Popover from '@mui/material/Popover';
import { type MouseEvent, type ReactElement, type ReactNode, useId, useState } from 'react';

export interface PopoverTrigger {
  onClick: (event: MouseEvent<HTMLElement>) => void;
  'aria-haspopup': 'dialog';
  'aria-controls': string | undefined;
}

/** A small explanatory popup, labelled like its trigger, which the caller draws with the given props. */
export function InfoPopover({
  label,
  trigger,
  children,
  maxWidth = 320,
}: {
  label: string;
  trigger: (props: PopoverTrigger) => ReactElement;
  children: ReactNode;
  maxWidth?: number;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  return (
    <>
      {trigger({
        onClick: (event) => setAnchor(event.currentTarget),
        'aria-haspopup': 'dialog',
        'aria-controls': anchor ? id : undefined,
      })}
      <Popover
        id={id}
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': label, sx: { p: 2, maxWidth } } }}
      >
        {children}
      </Popover>
    </>
  );
}
