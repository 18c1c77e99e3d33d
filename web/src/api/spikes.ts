// Spikes of saved searches and emerging terms (docs/monitor-api.md, Spikes; docs/spikes.md).
import { MONITOR } from './monitor';
import { request } from './transport';

/** A post behind a spike or a trend. */
export type SpikeSample = {
  postId: string;
  storyId: string;
  provider: string;
  author: string;
  text: string;
  url: string;
  publishedAt: string;
};

/** A saved search's spike; times are Unix seconds. */
export type Spike = {
  id: string;
  kind: 'search' | 'provider' | 'place';
  name: string;
  start: number;
  end: number;
  count: number;
  expected: number;
  low: number;
  high: number;
  score: number;
  storyIds: string[];
  samples: SpikeSample[];
};

/** An emerging term: a word, hashtag, handle or place rising above its own share. */
export type Trend = {
  kind: 'word' | 'hashtag' | 'handle' | 'place';
  term: string;
  count: number;
  share: number;
  baselineShare: number;
  score: number;
  storyIds: string[];
  samples: SpikeSample[];
};

export async function fetchSearchSpikes(searchId: number, signal?: AbortSignal): Promise<Spike[]> {
  return (await request<Spike[]>('GET', `${MONITOR}/searches/${searchId}/spikes`, { signal })).data;
}

/** What trends among the matches of the saved searches the user may read. */
export async function fetchMonitorTrends(signal?: AbortSignal): Promise<Trend[]> {
  return (await request<Trend[]>('GET', `${MONITOR}/trends`, { signal })).data;
}

/** What trends among every post the user may see (Beacon's "Trending now"). */
export async function fetchBeaconTrends(signal?: AbortSignal): Promise<Trend[]> {
  return (await request<Trend[]>('GET', '/beacon/v1/trending', { signal })).data;
}
