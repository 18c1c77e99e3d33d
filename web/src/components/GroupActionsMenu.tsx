import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DriveFileRenameOutlineOutlined from '@mui/icons-material/DriveFileRenameOutlineOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import { useState } from 'react';
import type { Group } from '../api/monitor';
import { useGroupActions } from '../hooks/useMonitorActions';
import { useProfile } from '../hooks/useProfileQuery';
import { ActionsMenu, type MenuAction } from './ActionsMenu';
import { GroupNameDialog } from './GroupNameDialog';
import { SharingDialog } from './SharingDialog';

/**
 * What can be done to a group, by whom: sharing for those who manage it, renaming for editors,
 * deleting for its owner, leaving for everyone else. Uncategorized groups are their owner's alone.
 */
export function GroupActionsMenu({ group }: { group: Group }) {
  const profile = useProfile();
  const actions = useGroupActions();
  const [dialog, setDialog] = useState<'rename' | 'share' | null>(null);
  const owner = group.owner.id === profile.id;
  const items: MenuAction[] = [
    !group.isSavedSearch && { label: 'Share', icon: ShareOutlined, onClick: () => setDialog('share') },
    group.canEdit &&
      !group.isSavedSearch && {
        label: 'Rename',
        icon: DriveFileRenameOutlineOutlined,
        onClick: () => setDialog('rename'),
      },
    owner && !group.isSavedSearch && { label: 'Delete', icon: DeleteOutlined, onClick: () => actions.remove(group) },
    !owner && { label: 'Leave group', icon: LogoutOutlined, onClick: () => actions.detach(group) },
  ].filter((item) => item !== false);
  return (
    <>
      <ActionsMenu label={`Actions for ${group.name}`} actions={items} />
      {dialog === 'rename' && (
        <GroupNameDialog
          name={group.name}
          saving={actions.updating}
          onClose={() => setDialog(null)}
          onSave={(name) => actions.update(group, { name })}
        />
      )}
      {dialog === 'share' && (
        <SharingDialog
          open
          onClose={() => setDialog(null)}
          itemName={group.name}
          owner={group.owner}
          entries={group.sharedUsers}
          privacy={group.privacy}
          canManageSharing={group.canManageSharing}
          shareWithIndividuals={profile.organization.feature_flags.share_searches === true}
          saving={actions.updating}
          onSave={({ privacy, sharedUsers }) => actions.update(group, { privacy, sharedUsers })}
          onRemoveOwnAccess={() => actions.detach(group)}
        />
      )}
    </>
  );
}
