import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { ExternalLinkContext } from '../hooks/useExternalLink';
import { profileQuery } from '../hooks/useProfileQuery';
import { readCookie, setNeverExpiringCookie } from '../lib/cookies';
import { isWebUrl, openInNewTab } from '../lib/webUrl';

export const SKIP_EXTERNAL_LINK_COOKIE = 'sightline_skip_external_link_warning';
const COPIED_FOR_MS = 1000;

/**
 * The external-link warning (search-side.md section 4): Cancel, Copy, Proceed, and "Do not show
 * again", which US-persons-information compliant organizations do not get.
 */
export function ExternalLinkProvider({ children }: { children: ReactNode }) {
  const { data: profile } = useQuery({ ...profileQuery, enabled: false });
  const compliant = profile?.organization.is_uspi_compliant ?? true;
  const [url, setUrl] = useState<string | null>(null);
  const [doNotShowAgain, setDoNotShowAgain] = useState(false);
  const [copied, setCopied] = useState(false);
  const titleId = useId();
  const textId = useId();

  const open = useCallback(
    (target: string) => {
      // An address that is not http or https is neither opened nor offered.
      if (!isWebUrl(target)) return;
      if (!compliant && readCookie(SKIP_EXTERNAL_LINK_COOKIE) !== undefined) {
        openInNewTab(target);
        return;
      }
      setDoNotShowAgain(false);
      setCopied(false);
      setUrl(target);
    },
    [compliant],
  );

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const close = () => {
    if (doNotShowAgain && !compliant) setNeverExpiringCookie(SKIP_EXTERNAL_LINK_COOKIE);
    setUrl(null);
  };

  return (
    <ExternalLinkContext.Provider value={open}>
      {children}
      <Dialog
        open={url !== null}
        onClose={close}
        aria-labelledby={titleId}
        aria-describedby={textId}
        slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
      >
        <DialogTitle id={titleId}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <WarningAmberOutlined color="warning" />
            <span>You are leaving Sightline</span>
          </Stack>
        </DialogTitle>
        <DialogContent>
          <DialogContentText id={textId}>
            This link opens a site outside Sightline, which can see your address and browser. Make sure you are allowed
            to visit it.
          </DialogContentText>
          <Box
            sx={{
              mt: 2,
              p: 1.5,
              borderRadius: 1,
              bgcolor: 'action.hover',
              fontFamily: 'monospace',
              fontSize: 13,
              wordBreak: 'break-all',
            }}
          >
            {url}
          </Box>
          {!compliant && (
            <FormControlLabel
              sx={{ mt: 1 }}
              control={
                <Checkbox checked={doNotShowAgain} onChange={(event) => setDoNotShowAgain(event.target.checked)} />
              }
              label="Do not show again"
            />
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close}>Cancel</Button>
          <Button
            onClick={() => {
              if (url) void navigator.clipboard?.writeText(url).then(() => setCopied(true));
            }}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button
            variant="contained"
            endIcon={<OpenInNewOutlined />}
            onClick={() => {
              if (url) openInNewTab(url);
              close();
            }}
          >
            Proceed
          </Button>
        </DialogActions>
      </Dialog>
    </ExternalLinkContext.Provider>
  );
}
