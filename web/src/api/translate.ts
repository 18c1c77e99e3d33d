// Translation (search-side.md section 7, docs/translation.md).
import { request } from './transport';

export interface TranslateRequest {
  query: string;
  destination_language: string;
  /** Omitted for automatic detection. */
  source_language?: string;
  format?: 'html' | 'text';
}

export interface TranslateReply {
  translation: string;
  entitiesInDocument: Record<string, string[]> | null;
}

/** The server's answer when no translation server is configured (503). */
export const TRANSLATION_NOT_CONFIGURED = 'Translation is not configured on this server';

export async function translateText(body: TranslateRequest, signal?: AbortSignal): Promise<string> {
  return (await request<TranslateReply>('POST', '/api/v1/translate', { body, signal })).data.translation;
}
