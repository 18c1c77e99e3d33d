import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { AUDIT_VALUE_PREVIEW, auditLines } from '../../lib/auditValue';

/** A previous or new value, readably: one line per changed field, long ones cut with Show more. */
export function AuditValue({ value, label }: { value: unknown; label: string }) {
  const [expanded, setExpanded] = useState(false);
  const lines = auditLines(value);
  if (lines.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" aria-label={`No ${label}`}>
        —
      </Typography>
    );
  }
  const text = lines.join('\n');
  const long = text.length > AUDIT_VALUE_PREVIEW;
  return (
    <Box sx={{ maxWidth: 360 }}>
      <Typography
        variant="body2"
        component="div"
        sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'monospace', fontSize: 13 }}
      >
        {long && !expanded ? `${text.slice(0, AUDIT_VALUE_PREVIEW)}…` : text}
      </Typography>
      {long && (
        <Button
          size="small"
          onClick={() => setExpanded(!expanded)}
          aria-expanded={expanded}
          sx={{ px: 0, minWidth: 0 }}
        >
          {expanded ? 'Show less' : `Show all of the ${label}`}
        </Button>
      )}
    </Box>
  );
}
