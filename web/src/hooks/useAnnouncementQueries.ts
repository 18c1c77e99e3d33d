import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import {
  type Announcements,
  deleteAnnouncement,
  fetchAnnouncements,
  markAnnouncementsRead,
  publishAnnouncement,
} from '../api/announcements';
import { announcementKeys } from '../api/keys';

// The badge looks again every minute, so a new announcement shows without a reload.
const REFRESH_MS = 60_000;

export function useAnnouncementsQuery() {
  return useQuery({
    queryKey: announcementKeys.all,
    queryFn: ({ signal }) => fetchAnnouncements(signal),
    refetchInterval: REFRESH_MS,
  });
}

/** Marks every listed announcement read by this user. */
export function useMarkAnnouncementsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => markAnnouncementsRead(),
    onSuccess: (data: Announcements) => queryClient.setQueryData(announcementKeys.all, data),
  });
}

export function usePublishAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishAnnouncement,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
  });
}

export function useDeleteAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAnnouncement,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
  });
}

/**
 * The top bar's announcements: where the popover hangs, how many are unread (the badge), and
 * which were new when it opened. Opening it marks them read for this user; they stay marked
 * "New" until it closes.
 */
export function useAnnouncements() {
  const query = useAnnouncementsQuery();
  const markRead = useMarkAnnouncementsRead();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const unread = query.data?.unread ?? 0;
  const open = useCallback(
    (element: HTMLElement | null) => {
      const ids = (query.data?.announcements ?? []).filter((a) => !a.read).map((a) => a.id);
      setFresh(new Set(ids));
      setAnchor(element);
      if (ids.length > 0) markRead.mutate();
    },
    [query.data, markRead],
  );
  return { anchor, open, close: () => setAnchor(null), fresh, unread };
}
