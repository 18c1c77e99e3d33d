import { useMutation } from '@tanstack/react-query';
import { analyzePost, askAssistant, type AskRequest } from '../api/assistant';

/** Asks the assistant; the caller's signal stops the question. */
export function useAskAssistant() {
  return useMutation({
    mutationFn: ({ signal, ...ask }: AskRequest & { signal: AbortSignal }) => askAssistant(ask, signal),
  });
}

export function useAnalyzePost() {
  return useMutation({ mutationFn: (postId: string) => analyzePost(postId) });
}
