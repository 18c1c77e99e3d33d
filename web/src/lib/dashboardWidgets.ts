import type { WidgetId } from '../api/dashboard';

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
};

export const WIDGET_IDS = Object.keys(WIDGET_TITLES) as WidgetId[];

/** As the server allows: rows of one to four widgets, at most twelve rows. */
export const MAX_ROW_WIDGETS = 4;
export const MAX_ROWS = 12;
