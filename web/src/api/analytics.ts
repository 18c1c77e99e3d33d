// What a search's results are about: their words and their days (search-side.md section 9).
import type { SearchCategory, SearchRequest } from './beacon';
import { request } from './transport';

export interface Analytics {
  /** The most used words, most used first; count is the number of posts using the word. */
  wordCloud: { word: string; count: number }[];
  /** Matching posts per UTC day (YYYY-MM-DD), the last 7 days, oldest first. */
  daily: { date: string; count: number }[];
  /**
   * How many matches were read: the newest, then `sampled` of the older ones, a `sampleRate`
   * share of them (1 when none was sampled), each standing for 1/sampleRate posts.
   */
  analyzed: number;
  sampled: number;
  sampleRate: number;
  /** False when even the sample was not read back to the window's start: the counts cover the posts since `reached`. */
  complete: boolean;
  reached: string;
  dailyIsEstimate: boolean;
}

export async function beaconAnalytics(category: SearchCategory, body: SearchRequest, signal?: AbortSignal) {
  return (await request<Analytics>('POST', '/beacon/v1/analytics', { body: { ...body, category }, signal })).data;
}
