import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PostAnalysis } from '../../api/assistant';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { AnalysisDialog } from './AnalysisDialog';

const analysis: PostAnalysis = {
  postId: 'p1',
  summary: 'Dockers extended the harbour strike into a second day.',
  model: 'extractive',
  entities: { emails: ['ops@harbour.example'], external_links: [] },
  mentioned_locations: ['Rotterdam'],
  threat: { score: 40, reasons: ['violence (+40): kill you'] },
};

describe('post analysis', () => {
  it('shows the summary, the threat reasons and the entities', async () => {
    const requests = fakeServer({ 'POST /api/v1/ai-insights/analyze': { data: analysis } });
    renderWithApp(<AnalysisDialog postId="p1" author="Ana" onClose={() => undefined} />, { profile: testProfile() });
    expect(await screen.findByText(analysis.summary)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Threat score: 40 of 100' })).toBeInTheDocument();
    expect(screen.getByText('violence (+40): kill you')).toBeInTheDocument();
    expect(screen.getByText('ops@harbour.example')).toBeInTheDocument();
    expect(screen.getByText('Rotterdam')).toBeInTheDocument();
    expect(screen.queryByText('Links')).not.toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/v1/ai-insights/analyze')?.body).toEqual({ postId: 'p1' });
  });

  it('says why a post cannot be analysed', async () => {
    fakeServer({
      'POST /api/v1/ai-insights/analyze': new Reply(422, {
        message: 'Analysis needs an English post of more than 10 words.',
      }),
    });
    renderWithApp(<AnalysisDialog postId="p2" author="Bo" onClose={() => undefined} />, { profile: testProfile() });
    expect(await screen.findByText('Analysis needs an English post of more than 10 words.')).toBeInTheDocument();
  });
});
