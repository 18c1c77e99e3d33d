import GridViewOutlined from '@mui/icons-material/GridViewOutlined';
import MapOutlined from '@mui/icons-material/MapOutlined';
import ViewListOutlined from '@mui/icons-material/ViewListOutlined';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { InboxView } from './Inbox';

const views = [
  { view: 'grid', label: 'Grid', icon: GridViewOutlined },
  { view: 'list', label: 'List', icon: ViewListOutlined },
  { view: 'map', label: 'Map', icon: MapOutlined },
] as const;

/** Grid, list or map: how matches are shown. */
export function InboxViewToggle({
  value,
  onChange,
  label,
}: {
  value: InboxView;
  onChange: (view: InboxView) => void;
  label: string;
}) {
  return (
    <ToggleButtonGroup
      value={value}
      exclusive
      size="small"
      aria-label={label}
      onChange={(_event, next: InboxView | null) => {
        if (next) onChange(next);
      }}
    >
      {views.map(({ view, label: text, icon: Icon }) => (
        <ToggleButton key={view} value={view} aria-label={text} sx={{ px: 1.5, gap: 0.75 }}>
          <Icon fontSize="small" />
          {text}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
