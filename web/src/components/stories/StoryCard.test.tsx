import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CaseSummary } from '../../api/cases';
import type { Provider } from '../../api/monitor';
import { testEvidence } from '../../test/evidenceFixtures';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testMatch, testProfile, testProviders } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { testInboxStory } from '../../test/storyFixtures';
import { StoryCard } from './StoryCard';

const user = userEvent.setup({ delay: null });
const providers = new Map<string, Provider>(testProviders.map((p) => [p.name, p]));

const harbour: CaseSummary = {
  id: 3,
  name: 'Harbour strike',
  status: 'open',
  privacy: 'private',
  tags: [],
  assignees: [],
  owner: { id: 1, name: 'Ada', email: 'ada@example.test', username: 'ada' },
  itemCount: 0,
  canEdit: true,
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
};

function renderCard() {
  return renderWithApp(<StoryCard row={testInboxStory('s-7', 2, testMatch(5))} providers={providers} />, {
    profile: testProfile(),
    path: '/monitor/matches/stories',
  });
}

describe('StoryCard', () => {
  it('captures the whole story, not its newest match', async () => {
    const requests = fakeServer({
      'POST /api/v1/evidence': new Reply(202, { data: { id: '21' } }),
      'GET /api/v1/evidence/21': {
        data: testEvidence({
          id: '21',
          kind: 'story',
          target: 's-7',
          files: [{ name: 'story.json', sha256: 'ef'.repeat(32), size: 900 }],
        }),
      },
    });
    renderCard();
    const card = screen.getByRole('article', { name: 'The Erasmus bridge is closed' });
    await user.click(within(card).getByRole('button', { name: 'Capture as evidence' }));
    const dialog = await screen.findByRole('dialog', { name: 'Evidence capture 21' });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ storyId: 's-7' });
    expect(await within(dialog).findByRole('link', { name: 'story.json' })).toBeInTheDocument();
  });

  it('adds the story to a case', async () => {
    const requests = fakeServer({
      'GET /api/v1/cases': { data: [harbour] },
      'POST /api/v1/cases/3/items': new Reply(201, { data: { id: 4 } }),
    });
    renderCard();
    const card = screen.getByRole('article', { name: 'The Erasmus bridge is closed' });
    await user.click(within(card).getByRole('button', { name: 'Add to case' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to case' });
    await within(dialog).findByText('Harbour strike');
    expect(within(dialog).getByText('Why this story matters to the case.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Added to the case “Harbour strike”.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ storyId: 's-7', note: '' });
  });
});
