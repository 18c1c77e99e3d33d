import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import type { ReactNode } from 'react';
import { spikeCounts, spikeSubject, spikeWhen } from './spikeText';

export type SpikeRow = {
  id: string | number;
  kind: string;
  name: string;
  start: number;
  end: number;
  count: number;
  expected: number;
  /** The saved search and its name, on the dashboard where spikes of several searches mix. */
  monitorSearchId?: number;
  searchName?: string;
  /** The newest post behind it, when known. */
  sample?: ReactNode;
};

/** Spikes, newest first: what spiked, when, and the count against the expected one. */
export function SpikeList({ spikes, onOpen }: { spikes: SpikeRow[]; onOpen?: (row: SpikeRow) => void }) {
  return (
    <List dense disablePadding aria-label="Spikes">
      {spikes.map((s) => {
        const text = (
          <ListItemText
            primary={`${spikeSubject(s.kind, s.name, s.searchName)} — ${spikeCounts(s.count, s.expected)}`}
            secondary={
              <>
                {spikeWhen(s.start, s.end)}
                {s.sample ? <> · {s.sample}</> : null}
              </>
            }
          />
        );
        return (
          <ListItem key={s.id} disablePadding>
            {onOpen ? (
              <ListItemButton onClick={() => onOpen(s)} sx={{ px: 0.5 }}>
                {text}
              </ListItemButton>
            ) : (
              text
            )}
          </ListItem>
        );
      })}
    </List>
  );
}
