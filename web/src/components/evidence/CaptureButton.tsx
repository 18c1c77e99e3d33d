import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { ApiError, GENERIC_ERROR_MESSAGE } from '../../api/transport';
import { useCaptureEvidence } from '../../hooks/useEvidenceQueries';
import { useSnackbar } from '../../hooks/useSnackbar';
import { EvidenceDialog } from './EvidenceDialog';

/** "Capture" on a post card: records the post, its page and media as evidence (docs/evidence.md). */
export function CaptureButton({ postId }: { postId: string }) {
  const capture = useCaptureEvidence();
  const snackbar = useSnackbar();
  const [id, setId] = useState<string | null>(null);
  const start = () =>
    capture.mutate(
      { postId },
      {
        onSuccess: setId,
        onError: (e) =>
          snackbar.show({ text: e instanceof ApiError && e.body?.message ? e.body.message : GENERIC_ERROR_MESSAGE, color: 'error' }),
      },
    );
  return (
    <>
      <Tooltip title="Capture as evidence">
        <span>
          <IconButton size="small" aria-label="Capture as evidence" onClick={start} disabled={capture.isPending}>
            <ArchiveOutlined fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      {id !== null && <EvidenceDialog id={id} onClose={() => setId(null)} />}
    </>
  );
}
