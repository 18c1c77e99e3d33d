import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useId } from 'react';
import type { FilterListChange } from '../../api/filters';
import { OBJECTS_DISABLED } from '../locate/LocateFilters';
import { FilterListForm } from './FilterListForm';

/** Where a create modal was opened from (search-side.md section 2's two create-modal routes). */
export type FilterModalContext = 'quick-search' | 'saved-search';

/**
 * The search-filter create modal: a new filter list's name, kind and entries in a dialog
 * (800 px wide, full screen on small screens). From a quick search object detection cannot be
 * chosen, as quick searches do not filter by objects (search-side.md section 6).
 */
export function CreateFilterDialog({
  context,
  onClose,
  onCreated,
}: {
  context: FilterModalContext;
  onClose: () => void;
  onCreated: (change: FilterListChange) => void;
}) {
  const titleId = useId();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      fullScreen={fullScreen}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: fullScreen ? undefined : 800 } } }}
    >
      <DialogTitle id={titleId}>Create search filter</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>
          {context === 'quick-search'
            ? 'A list of keywords or authors that narrows what a search finds.'
            : 'A list of keywords, authors or objects that narrows what saved searches collect. Attach it to a saved search in the search builder’s Search filters panel.'}
        </DialogContentText>
        <FilterListForm
          autoFocus
          onCancel={onClose}
          onCreated={onCreated}
          objectsDisabled={context === 'quick-search' ? OBJECTS_DISABLED : undefined}
        />
      </DialogContent>
    </Dialog>
  );
}
