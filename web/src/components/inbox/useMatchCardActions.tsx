import { type ReactNode, useMemo, useState } from 'react';
import type { Match, Provider } from '../../api/monitor';
import { useConfirm } from '../../hooks/useConfirm';
import { useExternalLink } from '../../hooks/useExternalLink';
import type { MatchAction } from '../../hooks/useMatchActions';
import type { Term } from '../../lib/highlight';
import { authorOf } from '../../lib/postAuthor';
import { AnalysisDialog } from '../assistant/AnalysisDialog';
import type { MatchCardActions } from './MatchCard';
import { ThreadDialog } from './ThreadDialog';

/**
 * What a match card's buttons do wherever matches are listed (the inbox's views, a story's
 * matches): flag and read through run, the thread and the assistant's analysis in dialogs, and
 * the post on its site, after a warning for a community that trades breached data. Render
 * dialogs beside the cards.
 */
export function useMatchCardActions({
  run,
  onSelect,
  providers,
  terms,
}: {
  run: (action: MatchAction, match: Match) => void;
  /** Ticking a card; without it the cards have no checkbox. */
  onSelect?: (matchId: number, selected: boolean) => void;
  providers: Map<string, Provider>;
  terms: Map<number, Term[]>;
}): { actions: MatchCardActions; dialogs: ReactNode } {
  const confirm = useConfirm();
  const openExternal = useExternalLink();
  const [threadOf, setThreadOf] = useState<Match | null>(null);
  const [analysed, setAnalysed] = useState<Match | null>(null);

  const actions = useMemo<MatchCardActions>(
    () => ({
      onSelect,
      onFlag: (match) => run({ flag: 'is-flagged', value: !match.matchMeta.isFlagged }, match),
      onRead: (match) => run({ flag: 'is-read', value: !match.matchMeta.isRead }, match),
      onThread: setThreadOf,
      onAnalyze: setAnalysed,
      onOpenPost: (url, match) => {
        if (match.post.community_kind !== 'breached-data') {
          openExternal(url);
          return;
        }
        confirm({
          title: 'Breached data',
          text:
            'This post comes from a community that trades breached data. Its site can hold stolen ' +
            'personal data, credentials and malware: open it only if your work requires it, and handle ' +
            'what you see as your organization’s policy says.',
          icon: 'warning',
          acceptLabel: 'Continue',
          onAccept: () => openExternal(url),
        });
      },
    }),
    [run, onSelect, openExternal, confirm],
  );

  const dialogs = (
    <>
      {analysed && (
        <AnalysisDialog postId={analysed.post.id} author={authorOf(analysed.post)} onClose={() => setAnalysed(null)} />
      )}
      {threadOf && (
        <ThreadDialog
          post={threadOf.post}
          provider={providers.get(threadOf.post.provider)}
          terms={terms.get(threadOf.matchMeta.monitorSearchId) ?? []}
          onClose={() => setThreadOf(null)}
        />
      )}
    </>
  );
  return { actions, dialogs };
}
