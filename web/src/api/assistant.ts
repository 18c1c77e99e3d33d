import type { AssistantFeedback, AssistantRating, AssistantReply, AssistantSource } from './contracts.gen';
import { request } from './transport';

export type { AssistantFeedback, AssistantRating, AssistantReply, AssistantSource };

export interface AskRequest {
  input: string;
  sessionId: string;
}

/** Asks the assistant; the conversation of sessionId keeps the question for follow-ups. */
export async function askAssistant(ask: AskRequest, signal?: AbortSignal): Promise<AssistantReply> {
  return (await request<AssistantReply>('POST', '/api/v1/ai-insights/conversation', { body: ask, signal })).data;
}

/** "Analyze" on a post (docs/assistant.md). */
export interface PostAnalysis {
  postId: string;
  summary: string;
  model: string;
  entities: {
    external_links?: string[];
    external_ips?: string[];
    phones?: string[];
    emails?: string[];
    credit_cards?: string[];
    ssns?: string[];
    authors?: string[];
  };
  mentioned_locations: string[];
  threat: { score: number; reasons: string[] };
}

export async function analyzePost(postId: string, signal?: AbortSignal): Promise<PostAnalysis> {
  return (await request<PostAnalysis>('POST', '/api/v1/ai-insights/analyze', { body: { postId }, signal })).data;
}

/** The caller's feedback on an answer of theirs: one rating, an optional comment (docs/assistant.md). */
export interface FeedbackRequest {
  messageId: number;
  rating: AssistantRating;
  comment?: string;
}

export async function rateAnswer({ messageId, rating, comment = '' }: FeedbackRequest): Promise<AssistantFeedback> {
  return (
    await request<AssistantFeedback>('PUT', `/api/v1/ai-insights/messages/${messageId}/feedback`, {
      body: { rating, comment },
    })
  ).data;
}

/** Withdraws the caller's feedback on an answer. */
export async function withdrawFeedback(messageId: number): Promise<void> {
  await request('DELETE', `/api/v1/ai-insights/messages/${messageId}/feedback`);
}
