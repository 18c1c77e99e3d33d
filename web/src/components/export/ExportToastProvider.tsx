import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ExportReady } from '../../api/exports';
import { useExportsQuery } from '../../hooks/useExportQueries';
import { ExportToastContext } from '../../hooks/useExportToasts';
import { timeLeft } from '../../lib/exportColumns';

export const EXPORT_FAILED = 'Something went wrong. We were unable to export these posts.';

/** The id in a download link, so that the live event and the history name the same export. */
function exportIdOf(link: string): string | null {
  return /\/exports\/([^/]+)\/download/.exec(link)?.[1] ?? null;
}

/**
 * The export toasts of both documents: "in progress" after a request, then "ready" with Download
 * and Dismiss and the link's time to live counting down. The ready toast comes from the live
 * channel's export.ready; the history is watched as well, so a page without the live channel
 * (or a missed event) still hears of it.
 */
export function ExportToastProvider({ children }: { children: ReactNode }) {
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  // The live event's link and when it stops working (ms).
  const [live, setLive] = useState<{ link: string; expiresAt: number } | null>(null);
  const [failedSeen, setFailedSeen] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const announced = useRef(new Set<string>());
  // Only watched while an export is awaited.
  const history = useExportsQuery(waitingFor !== null);

  const awaited = history.data?.find((e) => e.id === waitingFor);
  const shown =
    live ??
    (awaited?.status === 'ready' && awaited.downloadUrl
      ? { link: awaited.downloadUrl, expiresAt: awaited.expiresAt * 1000 }
      : null);
  const ttl = shown ? Math.floor((shown.expiresAt - now) / 1000) : 0;
  const failed = awaited?.status === 'failed' && !failedSeen ? awaited.error || EXPORT_FAILED : null;
  const inProgress = waitingFor !== null && shown === null && awaited?.status !== 'failed';

  // The time to live counts down once a second while the ready toast shows.
  const showing = shown !== null;
  useEffect(() => {
    if (!showing) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [showing]);

  const close = useCallback(() => {
    setWaitingFor(null);
    setLive(null);
  }, []);

  const service = useMemo(
    () => ({
      started: (exportId: string) => {
        setLive(null);
        setFailedSeen(false);
        setWaitingFor(exportId);
      },
      ready: (payload: ExportReady) => {
        if (payload.ttl <= 0) return;
        const id = exportIdOf(payload.link);
        if (id !== null) {
          if (announced.current.has(id)) return;
          announced.current.add(id);
        }
        const at = Date.now();
        setNow(at);
        setLive({ link: payload.link, expiresAt: at + Math.floor(payload.ttl) * 1000 });
      },
    }),
    [],
  );

  return (
    <ExportToastContext.Provider value={service}>
      {children}
      <Snackbar open={inProgress} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}>
        <Alert
          severity="info"
          variant="filled"
          icon={<CircularProgress size={18} color="inherit" aria-label="Export in progress" />}
          onClose={() => setWaitingFor(null)}
        >
          Preparing your export… You can keep working; we will tell you when it is ready.
        </Alert>
      </Snackbar>
      <Snackbar open={shown !== null && ttl > 0} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}>
        <Alert
          severity="success"
          variant="filled"
          action={
            <Stack direction="row" spacing={1}>
              <Button
                color="inherit"
                size="small"
                onClick={() => {
                  if (shown) window.open(shown.link, '_blank', 'noopener');
                  close();
                }}
              >
                Download
              </Button>
              <Button color="inherit" size="small" onClick={close}>
                Dismiss
              </Button>
            </Stack>
          }
        >
          Your export is ready. The link is valid for {timeLeft(Math.max(ttl, 0))}.
        </Alert>
      </Snackbar>
      <Snackbar open={failed !== null} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}>
        <Alert severity="error" variant="filled" onClose={() => setFailedSeen(true)}>
          {failed}
        </Alert>
      </Snackbar>
    </ExportToastContext.Provider>
  );
}
