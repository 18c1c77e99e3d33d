import { useMutation, useQuery } from '@tanstack/react-query';
import { analyzePost, askAssistant, type AskRequest } from '../api/assistant';
import { assistantKeys } from '../api/keys';

/** Asks the assistant; the caller's signal stops the question. */
export function useAskAssistant() {
  return useMutation({
    mutationFn: ({ signal, ...ask }: AskRequest & { signal: AbortSignal }) => askAssistant(ask, signal),
  });
}

/** "Analyze" on a post: asked once per post, kept while the app runs. */
export function useAnalysisQuery(postId: string) {
  return useQuery({
    queryKey: assistantKeys.analysis(postId),
    queryFn: ({ signal }) => analyzePost(postId, signal),
    retry: false,
    staleTime: Infinity,
  });
}
