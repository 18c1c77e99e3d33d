import type { WidgetId } from '../api/contracts.gen';

/** Each widget's title, on the dashboard and in Customize. */
export const WIDGET_TITLES: Record<WidgetId, string> = {
  result_count: 'Results',
  unread_count: 'Unread results',
  new_count: 'New results (last 24 hours)',
  top_authors: 'Top authors',
  top_providers: 'Top data sources',
  top_mentioned_locations: 'Top mentioned locations (30 days)',
  heatmap: 'Results by weekday and hour (30 days, UTC)',
  timeline: 'Results per day (30 days)',
  threat: 'Threat score',
  spikes: 'Spikes (7 days)',
  trending: 'Trending in your matches (last hour)',
};

// The ids and the bounds of a layout are the server's.
export { MAX_ROW_WIDGETS, MAX_ROWS, WIDGET_IDS } from '../api/contracts.gen';
