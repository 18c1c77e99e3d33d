import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { testEvidence } from '../../test/evidenceFixtures';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testMatch, testProfile, testProviders } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { MatchCard, type MatchCardActions } from './MatchCard';

const user = userEvent.setup({ delay: null });

const actions: MatchCardActions = {
  onSelect: vi.fn(),
  onFlag: vi.fn(),
  onRead: vi.fn(),
  onThread: vi.fn(),
  onAnalyze: vi.fn(),
  onOpenPost: vi.fn(),
};

describe('MatchCard', () => {
  it.each(['grid', 'list'] as const)('captures the match, so the record names its search (%s)', async (variant) => {
    const requests = fakeServer({
      'POST /api/v1/evidence': new Reply(202, { data: { id: '30' } }),
      'GET /api/v1/evidence/30': {
        data: testEvidence({
          id: '30',
          kind: 'match',
          target: '42',
          files: [
            { name: 'match.json', sha256: '01'.repeat(32), size: 700 },
            { name: 'post.json', sha256: '02'.repeat(32), size: 500 },
          ],
        }),
      },
    });
    renderWithApp(
      <MatchCard
        match={testMatch(42)}
        positionInFeed={1}
        feedSize={1}
        provider={testProviders[0]}
        variant={variant}
        selected={false}
        terms={[]}
        blurMedia={false}
        actions={actions}
      />,
      { profile: testProfile() },
    );
    const card = screen.getByRole('article', { name: 'Unread match by Author 42' });
    await user.click(within(card).getByRole('button', { name: 'Capture as evidence' }));
    const dialog = await screen.findByRole('dialog', { name: 'Evidence capture 30' });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ matchId: '42' });
    expect(await within(dialog).findByRole('link', { name: 'match.json' })).toBeInTheDocument();
  });
});
