import Avatar from '@mui/material/Avatar';
import AvatarGroup from '@mui/material/AvatarGroup';
import Tooltip from '@mui/material/Tooltip';
import type { SharingEntry } from '../api/monitor';
import { ROLE_LABELS, avatarItems, initials, personLabel, sortSharing } from '../lib/sharing';

/** Who an item is shared with: at most five avatars, editors darker than viewers. */
export function SharingAvatars({ entries, currentUserId }: { entries: SharingEntry[]; currentUserId: number }) {
  const items = avatarItems(sortSharing(entries));
  if (items.length === 0) return null;
  const names = sortSharing(entries)
    .map((e) => `${personLabel(e, currentUserId)} (${ROLE_LABELS[e.role]})`)
    .join(', ');
  return (
    <AvatarGroup
      max={items.length}
      role="img"
      aria-label={`Shared with ${names}`}
      sx={{ '& .MuiAvatar-root': { width: 28, height: 28, fontSize: 12, fontWeight: 650 } }}
    >
      {items.map((item) =>
        item.kind === 'more' ? (
          <Avatar key="more" sx={{ bgcolor: 'grey.500' }}>
            +{item.count}
          </Avatar>
        ) : (
          <Tooltip
            key={item.entry.id}
            title={`${personLabel(item.entry, currentUserId)}, ${ROLE_LABELS[item.entry.role]}`}
          >
            <Avatar sx={{ bgcolor: item.entry.role === 'full_access' ? 'primary.dark' : 'primary.light' }}>
              {initials(item.entry)}
            </Avatar>
          </Tooltip>
        ),
      )}
    </AvatarGroup>
  );
}
