import FolderOutlined from '@mui/icons-material/FolderOutlined';
import FolderSharedOutlined from '@mui/icons-material/FolderSharedOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { Group } from '../api/monitor';
import { useGroupActions } from '../hooks/useMonitorActions';
import { useProfile } from '../hooks/useProfileQuery';
import { countOf } from '../lib/countFormat';
import { personLabel, PRIVACY_OPTIONS } from '../lib/sharing';
import { FavouriteButton } from './FavouriteButton';
import { GroupActionsMenu } from './GroupActionsMenu';
import { ItemRow } from './ItemRow';
import { SharingAvatars } from './SharingAvatars';

/** One group in the groups list. */
export function GroupRow({ group }: { group: Group }) {
  const profile = useProfile();
  const actions = useGroupActions();
  const shared = group.privacy !== 'private' || group.sharedUsers.length > 0;
  const Icon = shared ? FolderSharedOutlined : FolderOutlined;
  const name = group.isSavedSearch ? 'Uncategorized' : group.name;
  return (
    <ItemRow>
      <FavouriteButton name={name} favourite={group.isFavourite} onToggle={() => void actions.favourite(group)} />
      <Icon color="action" />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Link component={RouterLink} to={String(group.id)} underline="hover" sx={{ fontWeight: 650 }}>
          {name}
        </Link>
        <Typography variant="body2" color="text.secondary">
          {countOf(group.searchCount, 'search', 'searches')} · owned by {personLabel(group.owner, profile.id)}
          {!group.canEdit && ' · view only'}
        </Typography>
      </Box>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        {!group.isSavedSearch && (
          <Chip size="small" variant="outlined" label={PRIVACY_OPTIONS.find((o) => o.value === group.privacy)?.label} />
        )}
        <SharingAvatars entries={group.sharedUsers} currentUserId={profile.id} />
        <GroupActionsMenu group={group} />
      </Stack>
    </ItemRow>
  );
}
