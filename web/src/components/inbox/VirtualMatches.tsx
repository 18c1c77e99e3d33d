import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useState } from 'react';
import type { Match, Provider } from '../../api/monitor';
import type { Term } from '../../lib/highlight';
import { MatchCard, type MatchCardActions } from './MatchCard';

const MIN_CARD_WIDTH = 320;
const GAP = 16;
// Pages load before the user reaches the end, so scrolling does not stall.
const PREFETCH_ROWS = 6;

function useWidth(element: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!element) return;
    // The observer reports the first size as soon as it starts observing.
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/**
 * The grid or list of matches, virtualized: only the rows in view exist in the page, so ten
 * thousand matches scroll as smoothly as ten. More pages load as the end comes near.
 */
export function VirtualMatches({
  variant,
  matches,
  total,
  providers,
  selected,
  terms,
  blurMedia,
  hasNextPage,
  fetchingNextPage,
  fetchNextPage,
  actions,
}: {
  variant: 'grid' | 'list';
  matches: Match[];
  total: number;
  providers: Map<string, Provider>;
  selected: Set<number>;
  terms: Map<number, Term[]>;
  blurMedia: boolean;
  hasNextPage: boolean;
  fetchingNextPage: boolean;
  fetchNextPage: () => void;
  actions: MatchCardActions;
}) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const width = useWidth(scroller);
  const columns = variant === 'list' ? 1 : Math.max(1, Math.floor((width + GAP) / (MIN_CARD_WIDTH + GAP)));
  const rows = Math.ceil(matches.length / columns);

  // TanStack Virtual hands back functions the React compiler cannot memoize; this component is not compiled.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows + (hasNextPage ? 1 : 0),
    getScrollElement: () => scroller,
    estimateSize: () => (variant === 'list' ? 104 : 380),
    overscan: 4,
    gap: variant === 'list' ? 8 : GAP,
    paddingStart: GAP,
    paddingEnd: GAP,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    if (hasNextPage && !fetchingNextPage && lastIndex >= rows - PREFETCH_ROWS) fetchNextPage();
  }, [hasNextPage, fetchingNextPage, lastIndex, rows, fetchNextPage]);

  return (
    <Box ref={setScroller} sx={{ flex: 1, minHeight: 0, overflowY: 'auto', px: { xs: 1, md: 2 } }}>
      <Box
        role="feed"
        aria-label="Matches"
        aria-busy={fetchingNextPage}
        sx={{ position: 'relative', width: '100%', height: virtualizer.getTotalSize() }}
      >
        {items.map((row) => {
          const first = row.index * columns;
          const rowMatches = matches.slice(first, first + columns);
          return (
            <Box
              key={row.key}
              data-index={row.index}
              ref={virtualizer.measureElement}
              sx={{
                position: 'absolute',
                top: 0,
                left: 0,
                width: '100%',
                transform: `translateY(${row.start}px)`,
                display: 'grid',
                gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
                gap: `${GAP}px`,
              }}
            >
              {row.index >= rows ? (
                <Box sx={{ gridColumn: '1 / -1', display: 'grid', placeItems: 'center', py: 3 }}>
                  <CircularProgress size={24} aria-label="Loading more matches" />
                </Box>
              ) : (
                rowMatches.map((match, offset) => (
                  <Box key={match.matchMeta.matchId} sx={{ minWidth: 0 }}>
                    <MatchCard
                      match={match}
                      positionInFeed={first + offset + 1}
                      feedSize={total}
                      provider={providers.get(match.post.provider)}
                      variant={variant}
                      selected={selected.has(match.matchMeta.matchId)}
                      terms={terms.get(match.matchMeta.monitorSearchId) ?? []}
                      blurMedia={blurMedia}
                      actions={actions}
                    />
                  </Box>
                ))
              )}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
