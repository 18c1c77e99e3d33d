import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import type { CaptureTarget } from '../../api/evidence';
import { ApiError, GENERIC_ERROR_MESSAGE } from '../../api/transport';
import { useCaptureEvidence } from '../../hooks/useEvidenceQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { EvidenceDialog } from './EvidenceDialog';

/**
 * "Capture" on a post card, a match, a story or a story card: records it, its pages and media as
 * evidence (docs/evidence.md) and opens the capture's progress, then its files. As an icon button
 * for a card's foot, or (compact false) a button with its label for a page's header.
 */
export function CaptureButton({ target, compact = true }: { target: CaptureTarget; compact?: boolean }) {
  const capture = useCaptureEvidence();
  const snackbar = useSnackbar();
  const [id, setId] = useState<string | null>(null);
  const start = () =>
    capture.mutate(target, {
      onSuccess: setId,
      onError: (e) =>
        snackbar.show({
          text: e instanceof ApiError && e.body?.message ? e.body.message : GENERIC_ERROR_MESSAGE,
          color: 'error',
        }),
    });
  return (
    <>
      {compact ? (
        <Tooltip title="Capture as evidence">
          <span>
            <IconButton size="small" aria-label="Capture as evidence" onClick={start} disabled={capture.isPending}>
              <ArchiveOutlined fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ) : (
        <Button
          variant="outlined"
          startIcon={<ArchiveOutlined />}
          onClick={start}
          loading={capture.isPending}
          sx={{ whiteSpace: 'nowrap' }}
        >
          Capture as evidence
        </Button>
      )}
      {id !== null && <EvidenceDialog id={id} onClose={() => setId(null)} />}
    </>
  );
}
