import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import type { PostAnalysis } from '../../api/assistant';
import { useAnalysisQuery } from '../../hooks/useAssistant';

const ENTITY_LABELS: [keyof PostAnalysis['entities'], string][] = [
  ['authors', 'Mentioned accounts'],
  ['external_links', 'Links'],
  ['external_ips', 'IP addresses'],
  ['emails', 'E-mail addresses'],
  ['phones', 'Phone numbers'],
  ['credit_cards', 'Credit card numbers'],
  ['ssns', 'Social security numbers'],
];

/** "Analyze" on a post: its summary, what it names and why it may be a threat. */
export function AnalysisDialog({ postId, author, onClose }: { postId: string; author: string; onClose: () => void }) {
  const titleId = useId();
  const analysis = useAnalysisQuery(postId);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Analysis of the post by {author}</DialogTitle>
      <DialogContent dividers>
        {analysis.isPending && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
            <CircularProgress size={18} aria-hidden />
            <Typography>Analysing the post…</Typography>
          </Stack>
        )}
        {analysis.isError && <Alert severity="info">{analysis.error.message}</Alert>}
        {analysis.data && <AnalysisBody analysis={analysis.data} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function AnalysisBody({ analysis }: { analysis: PostAnalysis }) {
  const entities = ENTITY_LABELS.filter(([key]) => (analysis.entities[key] ?? []).length > 0);
  return (
    <Stack spacing={2.5}>
      <Section title="Summary">
        <Typography>{analysis.summary}</Typography>
        <Typography variant="caption" color="text.secondary">
          {analysis.model === 'extractive'
            ? 'Sentences quoted from the post.'
            : `Written by the language model ${analysis.model} from the post.`}
        </Typography>
      </Section>
      <Section title={`Threat score: ${analysis.threat.score} of 100`}>
        {(analysis.threat.reasons ?? []).length > 0 ? (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {analysis.threat.reasons.map((reason) => (
              <li key={reason}>
                <Typography variant="body2">{reason}</Typography>
              </li>
            ))}
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            No threatening language or identifiers were found.
          </Typography>
        )}
      </Section>
      <Section title="Entities">
        {entities.length === 0 && (analysis.mentioned_locations ?? []).length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            The post names no accounts, links, addresses, numbers or places.
          </Typography>
        ) : (
          <Stack spacing={1}>
            {(analysis.mentioned_locations ?? []).length > 0 && (
              <EntityList label="Places" values={analysis.mentioned_locations} />
            )}
            {entities.map(([key, label]) => (
              <EntityList key={key} label={label} values={analysis.entities[key] ?? []} />
            ))}
          </Stack>
        )}
      </Section>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section">
      <Typography variant="h4" component="h3" gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function EntityList({ label, values }: { label: string; values: string[] }) {
  return (
    <Box>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {label}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
        {values.map((value) => (
          <Chip key={value} label={value} size="small" />
        ))}
      </Stack>
    </Box>
  );
}
