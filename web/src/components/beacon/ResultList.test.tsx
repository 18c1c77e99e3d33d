import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Provider } from '../../api/monitor';
import { fakeServer } from '../../test/fakeServer';
import { testProfile, testProviders } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { testPost } from '../../test/storyFixtures';
import { ResultList } from './ResultList';

const user = userEvent.setup({ delay: null });
const providers = new Map<string, Provider>(testProviders.map((p) => [p.name, p]));

describe('result list', () => {
  it('collapses the copies of a story under its first result, and shows them on demand', async () => {
    fakeServer({});
    const posts = [
      testPost(1, 'wire', { author_name: 'Wire desk' }),
      testPost(2, 'alone', { author_name: 'Local paper' }),
      testPost(3, 'wire', { author_name: 'Copy one' }),
      testPost(4, 'wire', { author_name: 'Copy two' }),
      testPost(5, 'wire', { author_name: 'Copy one' }),
    ];
    renderWithApp(
      <ResultList
        posts={posts}
        providers={providers}
        terms={[]}
        flagged={new Set()}
        blurMedia={false}
        onFlag={() => {}}
      />,
      { profile: testProfile() },
    );
    const results = await screen.findByRole('list', { name: 'Search results' });
    const top = within(results)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === results);
    expect(top).toHaveLength(2);
    expect(within(top[0]!).getByRole('article', { name: 'Result by Wire desk' })).toBeInTheDocument();
    // Three more results of the story, from two authors.
    const more = within(top[0]!).getByRole('button', { name: 'and 3 more from 2 sources' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('article', { name: 'Result by Copy two' })).not.toBeInTheDocument();
    await user.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const copies = screen.getByRole('list', { name: 'The same story: 3 other results' });
    expect(
      within(copies)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label')),
    ).toEqual(['Result by Copy one', 'Result by Copy two', 'Result by Copy one']);
    expect(within(top[1]!).queryByRole('button', { name: /more from/ })).not.toBeInTheDocument();
  });
});
