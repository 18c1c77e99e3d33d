import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { monitorKeys } from '../api/keys';
import { fetchSearch, type MonitorSearch, type MonitorSearchSummary } from '../api/monitor';
import { useSearchActions } from '../hooks/useMonitorActions';
import { useProfile } from '../hooks/useProfileQuery';
import { useSearchBuilder } from '../hooks/useSearchBuilder';
import { useSnackbar } from '../hooks/useSnackbar';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { MoveSearchDialog } from './MoveSearchDialog';

/**
 * Edit, duplicate, move, share, delete or leave a saved search, as the user's access allows.
 * onShare is given where the page can show the sharing dialog.
 */
export function SearchActionsMenu({ search, onShare }: { search: MonitorSearchSummary; onShare?: () => void }) {
  const profile = useProfile();
  const actions = useSearchActions();
  const builder = useSearchBuilder();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [moving, setMoving] = useState(false);
  const owner = search.owner.id === profile.id;

  // The builder needs the whole search; lists carry its minimal form.
  const withFull = (then: (full: MonitorSearch) => void) =>
    queryClient
      .fetchQuery({ queryKey: monitorKeys.search(search.id), queryFn: ({ signal }) => fetchSearch(search.id, signal) })
      .then(then, (error: unknown) =>
        snackbar.show({
          color: 'error',
          text: error instanceof Error ? error.message : 'Something went wrong. Please try again.',
        }),
      );
  const items: MenuAction[] = [
    search.canEdit && { label: 'Edit', icon: EditOutlined, onClick: () => void withFull(builder.edit) },
    { label: 'Duplicate', icon: ContentCopyOutlined, onClick: () => void withFull(builder.duplicate) },
    search.canEdit && { label: 'Move to group', icon: DriveFileMoveOutlined, onClick: () => setMoving(true) },
    onShare && { label: 'Share', icon: ShareOutlined, onClick: onShare },
    search.canEdit && { label: 'Delete', icon: DeleteOutlined, onClick: () => actions.remove(search) },
    !owner && { label: 'Leave search', icon: LogoutOutlined, onClick: () => actions.detach(search) },
  ].filter((item) => item !== false && item !== undefined);
  return (
    <>
      <ActionsMenu label={`Actions for ${search.value}`} actions={items} />
      {moving && <MoveSearchDialog search={search} onClose={() => setMoving(false)} />}
    </>
  );
}
