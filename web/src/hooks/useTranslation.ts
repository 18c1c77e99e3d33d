import { isCancelledError, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { translateKeys } from '../api/keys';
import { translateText } from '../api/translate';
import { ApiError } from '../api/transport';
import { useSnackbar } from './useSnackbar';

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

/** A post's translated title and text (search-side.md section 3, "translated title and text"). */
export interface PostTranslated {
  /** Absent when the post has no title. */
  translatedTitle?: string;
  /** Absent when the post has no text. */
  translatedText?: string;
}

/** The post's parts to translate, each trimmed; an empty one is not sent (section 4). */
export function postParts(post: { title_text?: string; content_text?: string }): { title: string; text: string } {
  return { title: post.title_text?.trim() ?? '', text: post.content_text?.trim() ?? '' };
}

/**
 * One post in one language: its title and its text translated apart (so the card shows each in
 * its place), fetched once, then kept for the session (section 4).
 */
export function postTranslationQuery(
  postId: string,
  parts: { title: string; text: string },
  source: string | undefined,
  target: string,
) {
  return queryOptions({
    queryKey: translateKeys.postTo(postId, target),
    queryFn: async ({ signal }): Promise<PostTranslated> => {
      const one = (query: string) =>
        query === ''
          ? Promise.resolve(undefined)
          : translateText({ query, destination_language: target, source_language: source, format: 'text' }, signal);
      const [translatedTitle, translatedText] = await Promise.all([one(parts.title), one(parts.text)]);
      return { translatedTitle, translatedText };
    },
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    retry: false,
  });
}

/** One keyword in one language. */
export function keywordTranslationQuery(keyword: string, target: string) {
  return queryOptions({
    queryKey: translateKeys.keyword(keyword, target),
    queryFn: ({ signal }) => translateText({ query: keyword, destination_language: target, format: 'text' }, signal),
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    retry: false,
  });
}

/** Translations asked together: each keyword into each language. */
export interface KeywordRequest {
  keyword: string;
  target: string;
}

/**
 * Translates keywords (each once per language, then cached): translate resolves to the texts in
 * the order asked, or undefined when cancelled or failed; a failure is said in an error snackbar
 * (section 8) and stops the others. Cancel, and leaving the screen, abort every call under way.
 */
export function useKeywordTranslator() {
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [pending, setPending] = useState(false);
  const run = useRef(0);

  const cancel = useCallback(() => {
    run.current++;
    setPending(false);
    void queryClient.cancelQueries({ queryKey: translateKeys.keywords });
  }, [queryClient]);

  useEffect(
    () => () => {
      run.current++;
      void queryClient.cancelQueries({ queryKey: translateKeys.keywords });
    },
    [queryClient],
  );

  const translate = useCallback(
    async (requests: readonly KeywordRequest[]): Promise<string[] | undefined> => {
      const id = ++run.current;
      setPending(true);
      try {
        const texts = await Promise.all(
          requests.map((r) => queryClient.fetchQuery(keywordTranslationQuery(r.keyword, r.target))),
        );
        if (run.current !== id) return undefined;
        setPending(false);
        return texts;
      } catch (error) {
        // Cancelled, or another run took over: whoever did that has set the state.
        if (run.current !== id) return undefined;
        setPending(false);
        if (isCancelledError(error) || (error instanceof ApiError && error.canceled)) return undefined;
        void queryClient.cancelQueries({ queryKey: translateKeys.keywords });
        snackbar.show({ text: error instanceof Error ? error.message : String(error), color: 'error' });
        return undefined;
      }
    },
    [queryClient, snackbar],
  );

  return { translate, cancel, pending };
}
