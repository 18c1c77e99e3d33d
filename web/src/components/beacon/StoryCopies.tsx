import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import { useId, type ReactNode } from 'react';
import { countOf } from '../../lib/countFormat';
import { sourceCount, type StoryGroup } from '../../lib/stories';

/**
 * The other results of a story, under its first one: "and 14 more from 9 sources", which shows
 * them. The counts are of the results loaded, as the button says.
 */
export function StoryCopies({
  group,
  open,
  onToggle,
  children,
}: {
  group: StoryGroup;
  open: boolean;
  onToggle: (open: boolean) => void;
  children: ReactNode;
}) {
  const listId = useId();
  const sources = sourceCount(group.copies);
  const label = `and ${countOf(group.copies.length, 'more', 'more')} from ${countOf(sources, 'source', 'sources')}`;
  return (
    <Box sx={{ pl: { xs: 1, sm: 3 }, pt: 0.5 }}>
      <Button
        size="small"
        aria-expanded={open}
        aria-controls={listId}
        title="Other results reporting the same story"
        endIcon={open ? <ExpandLess /> : <ExpandMore />}
        onClick={() => onToggle(!open)}
      >
        {label}
      </Button>
      <Collapse in={open} unmountOnExit>
        <Stack
          component="ol"
          id={listId}
          spacing={1}
          aria-label={`The same story: ${countOf(group.copies.length, 'other result', 'other results')}`}
          sx={{ listStyle: 'none', m: 0, p: 0, pt: 1, borderLeft: 2, borderColor: 'divider', pl: 1.5 }}
        >
          {children}
        </Stack>
      </Collapse>
    </Box>
  );
}
