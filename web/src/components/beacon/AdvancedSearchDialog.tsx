import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useProfile } from '../../hooks/useProfileQuery';
import { advancedQuery, type AdvancedFields } from '../../lib/advancedQuery';
import type { BeaconSearch } from '../../lib/beaconSearch';
import { fromLocalInput, toLocalInput } from '../../lib/dateRange';

/** What the advanced dialog changes in a search. */
export type AdvancedSearch = Pick<
  BeaconSearch,
  'query' | 'authors' | 'boards' | 'from' | 'to' | 'crawledFrom' | 'crawledTo'
>;

/**
 * What the date crawled reaches by default: the past two years (search-side.md section 9), as
 * far as posts are kept.
 */
function crawledDefault(retentionDays: number): string {
  return `The past two years unless you say otherwise. Posts are kept ${retentionDays} days.`;
}

const splitList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * Builds a search from plain fields: the words write the query text (shown as it will be
 * searched), authors and boards narrow it, the dates bound it.
 */
export function AdvancedSearchDialog({
  open,
  current,
  onClose,
  onSearch,
}: {
  open: boolean;
  current: BeaconSearch;
  onClose: () => void;
  onSearch: (search: AdvancedSearch) => void;
}) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Advanced search</DialogTitle>
      {open && <AdvancedForm current={current} onClose={onClose} onSearch={onSearch} />}
    </Dialog>
  );
}

function AdvancedForm({
  current,
  onClose,
  onSearch,
}: {
  current: BeaconSearch;
  onClose: () => void;
  onSearch: (search: AdvancedSearch) => void;
}) {
  const [fields, setFields] = useState<AdvancedFields>({
    allWords: current.query,
    exactPhrase: '',
    anyWords: '',
    noneWords: '',
  });
  const [authors, setAuthors] = useState(current.authors.join(', '));
  const [boards, setBoards] = useState(current.boards.join(', '));
  const [from, setFrom] = useState(toLocalInput(current.from ? new Date(current.from) : null));
  const [to, setTo] = useState(toLocalInput(current.to ? new Date(current.to) : null));
  const [crawledFrom, setCrawledFrom] = useState(
    toLocalInput(current.crawledFrom ? new Date(current.crawledFrom) : null),
  );
  const [crawledTo, setCrawledTo] = useState(toLocalInput(current.crawledTo ? new Date(current.crawledTo) : null));
  const { retentionDays } = useProfile();
  const query = advancedQuery(fields);
  const fromDate = fromLocalInput(from);
  const toDate = fromLocalInput(to);
  const crawledFromDate = fromLocalInput(crawledFrom);
  const crawledToDate = fromLocalInput(crawledTo);
  const wrong = (start: Date | null, end: Date | null) =>
    start && end && end <= start ? 'The end must be after the start.' : undefined;
  const datesWrong = wrong(fromDate, toDate);
  const crawledWrong = wrong(crawledFromDate, crawledToDate);
  const empty = query === '' && splitList(authors).length === 0 && splitList(boards).length === 0;
  const field = (key: keyof AdvancedFields, label: string, helper: string) => (
    <TextField
      label={label}
      value={fields[key]}
      onChange={(event) => setFields({ ...fields, [key]: event.target.value })}
      helperText={helper}
    />
  );

  return (
    <>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {field('allWords', 'All of these words', 'Every word must appear.')}
          {field('exactPhrase', 'This exact phrase', 'The words together, in this order.')}
          {field('anyWords', 'Any of these words', 'At least one must appear.')}
          {field('noneWords', 'None of these words', 'Posts with these words are left out.')}
          <TextField
            label="Authors"
            value={authors}
            onChange={(event) => setAuthors(event.target.value)}
            helperText="Names or handles, separated by commas."
          />
          <TextField
            label="Boards"
            value={boards}
            onChange={(event) => setBoards(event.target.value)}
            helperText="Forums, channels or subreddits, separated by commas."
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label="Published from"
              type="datetime-local"
              value={from}
              onChange={(event) => setFrom(event.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
            <TextField
              label="Published until"
              type="datetime-local"
              value={to}
              onChange={(event) => setTo(event.target.value)}
              error={Boolean(datesWrong)}
              helperText={datesWrong}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label="Crawled from"
              type="datetime-local"
              value={crawledFrom}
              onChange={(event) => setCrawledFrom(event.target.value)}
              helperText={crawledDefault(retentionDays)}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
            <TextField
              label="Crawled until"
              type="datetime-local"
              value={crawledTo}
              onChange={(event) => setCrawledTo(event.target.value)}
              error={Boolean(crawledWrong)}
              helperText={crawledWrong}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          </Stack>
          <Typography variant="body2" color="text.secondary" aria-live="polite">
            {query === '' ? 'The words you type are written into the search here.' : `Searches for: ${query}`}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={empty || Boolean(datesWrong) || Boolean(crawledWrong)}
          onClick={() =>
            onSearch({
              query,
              authors: splitList(authors),
              boards: splitList(boards),
              from: fromDate?.getTime(),
              to: toDate?.getTime(),
              crawledFrom: crawledFromDate?.getTime(),
              crawledTo: crawledToDate?.getTime(),
            })
          }
        >
          Search
        </Button>
      </DialogActions>
    </>
  );
}
