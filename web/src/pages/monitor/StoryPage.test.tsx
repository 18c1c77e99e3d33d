import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile, testProviders } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { testPost, testStory } from '../../test/storyFixtures';
import { testEvidence } from '../../test/evidenceFixtures';
import { StoryPage } from './StoryPage';

const user = userEvent.setup({ delay: null });

function renderStory(id: string) {
  return renderWithApp(
    <Routes>
      <Route path="/monitor/stories/:id" element={<StoryPage />} />
    </Routes>,
    { profile: testProfile(), path: `/monitor/stories/${id}` },
  );
}

describe('story page', () => {
  it('shows the story and loads its posts page after page', async () => {
    // Three posts, the first page answered with two: "Load more" asks from the third.
    const rotterdam = { name: 'Rotterdam', country_code: 'NL', point: { lat: 51.92, lon: 4.48 } };
    const delft = { name: 'Delft', country_code: 'NL', point: { lat: 52.01, lon: 4.36 } };
    const firstPage = [
      testPost(1, 's1', { mentioned_locations: [rotterdam, rotterdam] }),
      testPost(2, 's1', { mentioned_locations: [delft, rotterdam] }),
    ];
    const requests = fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/stories/s1': (request: { query: URLSearchParams }) => ({
        data: testStory('s1', {
          postCount: 3,
          posts: request.query.get('offset') === '2' ? [testPost(3, 's1', { author_name: 'Last author' })] : firstPage,
        }),
      }),
    });
    renderStory('s1');
    const title = await screen.findByRole('heading', { level: 1, name: 'The Erasmus bridge is closed' });
    expect(title.parentElement).toHaveTextContent('2 sources · 2 languages');
    const facts = screen.getByText('First seen').closest('dl');
    expect(facts).toHaveTextContent(/First seen.*2026.*Last seen.*2026.*Posts3/);
    expect(screen.getByRole('img', { name: /^3 posts from / })).toBeInTheDocument();
    const sources = screen.getByRole('list', { name: 'Sources' });
    expect(
      within(sources)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['X 2', 'Reddit 1']);
    const languages = screen.getByRole('list', { name: 'Languages' });
    expect(
      within(languages)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['English 2', 'Dutch 1']);
    // The places the loaded posts name, each counted once a post, on a map.
    const places = screen.getByRole('region', { name: 'Places' });
    expect(places).toHaveTextContent('Rotterdam (2) · Delft (1) — named in the 2 posts loaded');
    expect(
      within(places).getByRole('img', { name: /^Map of the most mentioned places: Rotterdam 2, Delft 1/ }),
    ).toBeInTheDocument();
    const posts = screen.getByRole('list', { name: 'Posts of the story' });
    expect(within(posts).getAllByRole('article')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(posts).findByRole('article', { name: 'Post by Last author' })).toBeInTheDocument();
    expect(within(posts).getAllByRole('article')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/v1/stories/s1').map((r) => r.query.get('offset'))).toEqual([
      '0',
      '2',
    ]);
  });

  it('says a story it may not see is not available', async () => {
    fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/stories/gone': new Reply(404, { error: { message: 'Story not found.' } }),
    });
    renderStory('gone');
    expect(await screen.findByRole('heading', { name: 'This story is not available' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Back to the stories' })).toHaveAttribute(
        'href',
        '/monitor/matches/stories',
      ),
    );
  });

  it('captures the story from its header', async () => {
    const requests = fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/stories/s1': { data: testStory('s1') },
      'POST /api/v1/evidence': new Reply(202, { data: { id: '12' } }),
      'GET /api/v1/evidence/12': {
        data: testEvidence({
          id: '12',
          kind: 'story',
          target: 's1',
          files: [{ name: 'story.json', sha256: 'ef'.repeat(32), size: 900 }],
        }),
      },
    });
    renderStory('s1');
    await screen.findByRole('heading', { level: 1, name: 'The Erasmus bridge is closed' });
    // The header's button captures the story; each post's card keeps its own.
    const [header, ...cards] = screen.getAllByRole('button', { name: 'Capture as evidence' });
    expect(cards).toHaveLength(1);
    if (!header) throw new Error('no Capture in the header');
    await user.click(header);
    const dialog = await screen.findByRole('dialog', { name: 'Evidence capture 12' });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ storyId: 's1' });
    expect(await within(dialog).findByRole('link', { name: 'story.json' })).toHaveAttribute(
      'href',
      '/api/v1/evidence/12/files/story.json',
    );
  });
});
