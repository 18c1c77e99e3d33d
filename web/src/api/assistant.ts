import { request } from './transport';

/** A post an answer cites (search-side.md section 3). */
export interface AssistantSource {
  id: string;
  provider: string;
  title_text: string;
  text: string;
  author_name: string;
  author_screen_name: string;
  /** Unix seconds. */
  created_at: number;
  post_link?: string;
}

/** An answer: each sentence ends with [n], n counting from 1 in relevant_documents. */
export interface AssistantReply {
  response: string;
  relevant_documents: AssistantSource[];
}

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
