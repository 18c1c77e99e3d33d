import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { AutoCaptureMode } from '../../api/evidence';
import { ApiError, GENERIC_ERROR_MESSAGE } from '../../api/transport';
import { useAutoCaptureQuery, useSaveAutoCapture } from '../../hooks/useEvidenceQueries';
import { useSnackbar } from '../../hooks/useSnackbar';

const LABELS: Record<AutoCaptureMode, string> = {
  off: 'Off',
  high: 'High-threat matches',
  all: 'Every match',
};

/** A saved search's automatic evidence capture of its new matches; those who may edit it change it. */
export function AutoCaptureSelect({ searchId, canEdit }: { searchId: number; canEdit: boolean }) {
  const query = useAutoCaptureQuery(searchId);
  const save = useSaveAutoCapture(searchId);
  const snackbar = useSnackbar();
  if (!query.data) return null;
  const quota = query.data.quota > 0 ? `Up to ${query.data.quota} captures a day for the organization` : undefined;
  return (
    <TextField
      select
      size="small"
      label="Capture as evidence"
      value={query.data.mode}
      disabled={!canEdit || save.isPending}
      title={quota}
      onChange={(e) =>
        save.mutate(e.target.value as AutoCaptureMode, {
          onError: (err) =>
            snackbar.show({
              text: err instanceof ApiError && err.body?.message ? err.body.message : GENERIC_ERROR_MESSAGE,
              color: 'error',
            }),
        })
      }
      sx={{ minWidth: 200 }}
    >
      {(Object.keys(LABELS) as AutoCaptureMode[]).map((mode) => (
        <MenuItem key={mode} value={mode}>
          {LABELS[mode]}
        </MenuItem>
      ))}
    </TextField>
  );
}
