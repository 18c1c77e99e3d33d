import { queryOptions } from '@tanstack/react-query';
import { translateText } from '../api/translate';

/** A post's text to translate: its title and its text. */
export function postText(post: { title_text?: string; content_text?: string }): string {
  return [post.title_text, post.content_text]
    .map((t) => t?.trim())
    .filter(Boolean)
    .join('\n\n');
}

/** The source to send: the post's language when it is known, else the server detects it. */
export function sourceLanguage(language: string | undefined): string | undefined {
  return language && language !== 'und' ? language : undefined;
}

/** Every translation of one post, for cancelling them together. */
export const postTranslationsKey = (postId: string) => ['translate', 'post', postId] as const;

/** One post in one language: fetched once, then kept for the session (section 4). */
export function postTranslationQuery(postId: string, text: string, source: string | undefined, target: string) {
  return queryOptions({
    queryKey: [...postTranslationsKey(postId), target],
    queryFn: ({ signal }) =>
      translateText({ query: text, destination_language: target, source_language: source, format: 'text' }, signal),
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    retry: false,
  });
}

/** One keyword in one language. */
export function keywordTranslationQuery(keyword: string, target: string) {
  return queryOptions({
    queryKey: ['translate', 'keyword', keyword, target],
    queryFn: ({ signal }) => translateText({ query: keyword, destination_language: target, format: 'text' }, signal),
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    retry: false,
  });
}
