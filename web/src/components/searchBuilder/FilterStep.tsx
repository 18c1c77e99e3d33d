import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import { useEffect, useRef, useState } from 'react';
import { type FilterFrameMessage, readFilterFrameMessage } from '../../lib/filterFrame';

export const FILTER_FRAME_PATH = '/monitor/filters/new?embedded=1';

/**
 * Creating a filter list inside the builder: the create-filter page in a frame, which reports
 * when it has loaded, when it wants to close, and the id of the list it created.
 */
export function FilterStep({
  titleId,
  onBack,
  onCreated,
}: {
  titleId: string;
  onBack: () => void;
  onCreated: (id: number) => void;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [loaded, setLoaded] = useState(false);
  const handlers = useRef({ onBack, onCreated });
  useEffect(() => {
    handlers.current = { onBack, onCreated };
  });

  useEffect(() => {
    const receive = (event: MessageEvent) => {
      // Only the frame we opened, from our own origin, may drive the builder.
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      const message: FilterFrameMessage | null = readFilterFrameMessage(event.data);
      if (message?.type === 'loaded') setLoaded(true);
      if (message?.type === 'closeModal') handlers.current.onBack();
      if (message?.type === 'createdFilterList') handlers.current.onCreated(message.id);
    };
    window.addEventListener('message', receive);
    return () => window.removeEventListener('message', receive);
  }, []);

  return (
    <>
      <DialogTitle id={titleId}>New search filter</DialogTitle>
      <DialogContent>
        <Link component="button" type="button" onClick={onBack} sx={{ display: 'inline-flex', gap: 0.5, mb: 2 }}>
          <ArrowBackOutlined fontSize="small" /> Choose an existing filter instead
        </Link>
        <Box sx={{ position: 'relative', height: 560 }}>
          {!loaded && (
            <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
              <CircularProgress aria-label="Loading the filter form" />
            </Box>
          )}
          <Box
            component="iframe"
            ref={frame}
            src={FILTER_FRAME_PATH}
            title="Create a search filter"
            sx={{ width: '100%', height: '100%', border: 0, visibility: loaded ? 'visible' : 'hidden' }}
          />
        </Box>
      </DialogContent>
    </>
  );
}
