import { useMutation, useQuery } from '@tanstack/react-query';
import {
  analyzePost,
  askAssistant,
  type AskRequest,
  type FeedbackRequest,
  rateAnswer,
  withdrawFeedback,
} from '../api/assistant';
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

/** Rates an answer (thumbs up or down, with an optional comment), or withdraws the rating (rating null). */
export function useAnswerFeedback() {
  return useMutation({
    mutationFn: async ({
      rating,
      ...rest
    }: Omit<FeedbackRequest, 'rating'> & { rating: FeedbackRequest['rating'] | null }) =>
      rating === null ? (await withdrawFeedback(rest.messageId), null) : rateAnswer({ ...rest, rating }),
  });
}
