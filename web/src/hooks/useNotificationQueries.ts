// Server state of a saved search's alerts: its notification settings and delivery history.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { monitorKeys } from '../api/keys';
import type { NotificationDestination, NotificationSetting } from '../api/monitor';
import {
  type AlertQuiet,
  type Delivery,
  getAlertChannels,
  getAlertQuiet,
  muteStory,
  type SnoozeLength,
  snoozeAlerts,
  wakeAlerts,
  getDeliveries,
  getNotificationSettings,
  saveNotificationSettings,
  sendTestNotification,
} from '../api/notifications';

/** The server's alert channels; they change only with its configuration. */
export const alertChannelsQuery = queryOptions({
  queryKey: monitorKeys.alertChannels,
  queryFn: ({ signal }) => getAlertChannels(signal),
  staleTime: Infinity,
});

export function useAlertChannelsQuery() {
  return useQuery(alertChannelsQuery);
}

/** How often the history reloads while a delivery is still under way. */
export const DELIVERY_REFRESH_MS = 30_000;

export function useNotificationSettingsQuery(searchId: number) {
  return useQuery({
    queryKey: monitorKeys.notificationSettings(searchId),
    queryFn: ({ signal }) => getNotificationSettings(searchId, signal),
  });
}

export function useSaveNotificationSettings(searchId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSetting[]) => saveNotificationSettings(searchId, settings),
    onSuccess: (saved) => queryClient.setQueryData(monitorKeys.notificationSettings(searchId), saved),
  });
}

export function useSendTestNotification(searchId: number) {
  return useMutation({
    mutationFn: (destination: NotificationDestination) => sendTestNotification(searchId, destination),
  });
}

function underWay(deliveries: Delivery[] | undefined): boolean {
  return deliveries?.some((d) => d.status === 'pending' || d.status === 'retrying') === true;
}

export function useDeliveriesQuery(searchId: number) {
  return useQuery({
    queryKey: monitorKeys.deliveries(searchId),
    queryFn: ({ signal }) => getDeliveries(searchId, signal),
    // Nothing changes on its own once every delivery has been sent or given up.
    refetchInterval: (query) => (underWay(query.state.data) ? DELIVERY_REFRESH_MS : false),
  });
}

export function useAlertQuietQuery(searchId: number) {
  return useQuery({
    queryKey: monitorKeys.alertQuiet(searchId),
    queryFn: ({ signal }) => getAlertQuiet(searchId, signal),
  });
}

/** Snoozes (a length or a time) or, given null, wakes the search's alerts. */
export function useSnoozeAlerts(searchId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (until: { for: SnoozeLength } | { until: number } | null) =>
      until === null ? wakeAlerts(searchId) : snoozeAlerts(searchId, until),
    onSuccess: (quiet: AlertQuiet) => queryClient.setQueryData(monitorKeys.alertQuiet(searchId), quiet),
  });
}

export function useMuteStory(searchId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ storyId, mute }: { storyId: string; mute: boolean }) => muteStory(searchId, storyId, mute),
    onSuccess: (quiet: AlertQuiet) => queryClient.setQueryData(monitorKeys.alertQuiet(searchId), quiet),
  });
}
