import AutoStoriesOutlined from '@mui/icons-material/AutoStoriesOutlined';
import GridViewOutlined from '@mui/icons-material/GridViewOutlined';
import MapOutlined from '@mui/icons-material/MapOutlined';
import ViewListOutlined from '@mui/icons-material/ViewListOutlined';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { InboxView } from './Inbox';

/** The inbox's views: the matches' three, and the stories they report. */
export type InboxPageView = InboxView | 'stories';

const views = [
  { view: 'grid', label: 'Grid', icon: GridViewOutlined },
  { view: 'list', label: 'List', icon: ViewListOutlined },
  { view: 'map', label: 'Map', icon: MapOutlined },
  { view: 'stories', label: 'Stories', icon: AutoStoriesOutlined },
] as const;

/** Grid, list or map: how matches are shown; the inbox can show them as stories too. */
export function InboxViewToggle<View extends InboxPageView>({
  value,
  onChange,
  label,
  withStories = false,
}: {
  value: View;
  onChange: (view: View) => void;
  label: string;
  /** Offer the Stories view (the inbox has it; a saved search's page does not yet). */
  withStories?: boolean;
}) {
  return (
    <ToggleButtonGroup
      value={value}
      exclusive
      size="small"
      aria-label={label}
      onChange={(_event, next: View | null) => {
        if (next) onChange(next);
      }}
    >
      {views
        .filter(({ view }) => withStories || view !== 'stories')
        .map(({ view, label: text, icon: Icon }) => (
          <ToggleButton key={view} value={view} aria-label={text} sx={{ px: 1.5, gap: 0.75 }}>
            <Icon fontSize="small" />
            {text}
          </ToggleButton>
        ))}
    </ToggleButtonGroup>
  );
}
