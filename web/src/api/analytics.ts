// What a search's results are about: their words and their days (search-side.md section 9).
import type { SearchCategory, SearchRequest } from './beacon';
import { request } from './transport';

export interface Analytics {
  /** The most used words, most used first; count is the number of posts using the word. */
  wordCloud: { word: string; count: number }[];
  /** Matching posts per UTC day (YYYY-MM-DD), the last 7 days, oldest first. */
  daily: { date: string; count: number }[];
  /** How many matches the word cloud counts; complete is false when they are the newest of more. */
  analyzed: number;
  complete: boolean;
  dailyIsEstimate: boolean;
}

export async function beaconAnalytics(category: SearchCategory, body: SearchRequest, signal?: AbortSignal) {
  return (await request<Analytics>('POST', '/beacon/v1/analytics', { body: { ...body, category }, signal })).data;
}
