import MoreVertOutlined from '@mui/icons-material/MoreVertOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';

export interface MenuAction {
  label: string;
  icon: SvgIconComponent;
  onClick: () => void;
}

/** A "more" button with a menu of actions; the menu closes before an action runs. */
export function ActionsMenu({ label, actions }: { label: string; actions: MenuAction[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (actions.length === 0) return null;
  return (
    <>
      <IconButton aria-label={label} aria-haspopup="menu" onClick={(event) => setAnchor(event.currentTarget)}>
        <MoreVertOutlined />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {actions.map(({ label: text, icon: Icon, onClick }) => (
          <MenuItem
            key={text}
            onClick={() => {
              setAnchor(null);
              onClick();
            }}
          >
            <ListItemIcon>
              <Icon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{text}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
