import Box from '@mui/material/Box';
import { useMemo } from 'react';
import { highlight, type Term } from '../../lib/highlight';

/** Text with what the saved search matched marked. */
export function HighlightedText({ text, terms }: { text: string; terms: Term[] }) {
  const segments = useMemo(() => highlight(text, terms), [text, terms]);
  return (
    <>
      {segments.map((segment, index) =>
        segment.hit ? (
          <Box
            component="mark"
            key={index}
            sx={{ bgcolor: 'warning.light', color: 'common.black', borderRadius: 0.5, px: 0.25 }}
          >
            {segment.text}
          </Box>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}
