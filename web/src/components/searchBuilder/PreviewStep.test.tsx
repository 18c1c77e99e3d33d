import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Dialog from '@mui/material/Dialog';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BacktestResult, Post, SearchRequest } from '../../api/monitor';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testGroup, testProfile, testProviders, testSearch } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { openSearchBuilder } from '../../test/searchBuilder';
import { DEFAULT_BACKFILL_DAYS, PreviewStep } from './PreviewStep';

const user = userEvent.setup({ delay: null });
const BACKTEST = 'POST /api/v1/monitor/searches/backtest';

function samplePost(n: number, text: string): Post {
  return {
    id: `p${n}`,
    storyId: `p${n}`,
    provider: 'twitter',
    native_id: `n${n}`,
    content_type: 'social_media_post',
    author_name: `Author ${n}`,
    content_text: text,
    published_at: new Date(Date.now() - n * 3_600_000).toISOString(),
    discovered_at: new Date().toISOString(),
    entities: {},
    threat: { score: 0 },
  };
}

function result(overrides: Partial<BacktestResult> = {}): BacktestResult {
  return {
    count: 45,
    perDay: [
      { date: '2026-11-21', count: 0 },
      { date: '2026-11-22', count: 30 },
      { date: '2026-11-23', count: 15 },
    ],
    expectedPerDay: 1.5,
    samples: [samplePost(1, 'the bridge is closed'), samplePost(2, 'a bridge too far')],
    truncated: false,
    scanned: 900,
    from: 1_792_879_175,
    to: 1_795_471_175,
    coveredFrom: 1_792_879_175,
    expected: { perDay: 12.4, low: 8, high: 17, days: 7 },
    backfill: [3, 5, 9, 14, 20, 28, 37, ...Array.from({ length: 23 }, (_, i) => 38 + i)],
    ...overrides,
  };
}

function server(backtest: unknown, extra: Record<string, unknown> = {}) {
  return fakeServer({
    'GET /api/v1/monitor/providers': { data: testProviders },
    'GET /api/v1/monitor/monitor-search-groups': { data: [testGroup(3, { name: 'Protests' })] },
    'GET /api/v1/filter-lists/': { data: [] },
    [BACKTEST]: backtest,
    ...extra,
  });
}

async function openPreview() {
  const dialog = await openSearchBuilder(testProfile());
  await user.click(within(dialog).getByRole('combobox', { name: /Group/ }));
  await user.click(await screen.findByRole('option', { name: 'Protests' }));
  fireEvent.change(within(dialog).getByLabelText('Keywords'), { target: { value: 'bridge' } });
  const preview = within(dialog).getByRole('button', { name: 'Preview' });
  await waitFor(() => expect(preview).toBeEnabled());
  await user.click(preview);
  return screen.findByRole('dialog', { name: /Preview: bridge/ });
}

// What the builder sends for a search named and keyed "bridge" in group 3 with the default providers.
const draft: SearchRequest = {
  group_id: 3,
  name: 'bridge',
  author_id: '',
  author_query: '',
  address: '',
  address_bounds: '',
  keywords: 'bridge',
  providers: ['twitter', 'reddit', 'gab', 'vk'],
  start_at: null,
  end_at: null,
  search_filters: [],
  images_only: false,
  video_only: false,
  board_names: [],
  alerts: [],
  shared_users: [],
};

/**
 * The preview step alone, in a dialog as the builder shows it: opening the whole builder and
 * filling its form costs most of a test's time, and the tests through the builder below show
 * that its draft, its Back and its Create reach the preview and the server. Returns the dialog
 * and the backfill days of each Create.
 */
async function renderPreview() {
  const submitted: number[] = [];
  function Step() {
    const [backfillDays, setBackfillDays] = useState(DEFAULT_BACKFILL_DAYS);
    return (
      <Dialog open aria-labelledby="preview-title">
        <PreviewStep
          titleId="preview-title"
          draft={draft}
          providers={testProviders}
          editing={false}
          submitting={false}
          backfillDays={backfillDays}
          onBackfillDays={setBackfillDays}
          onBack={() => {}}
          onSubmit={() => submitted.push(backfillDays)}
        />
      </Dialog>
    );
  }
  renderWithApp(<Step />, { profile: testProfile() });
  return { dialog: await screen.findByRole('dialog', { name: /Preview: bridge/ }), submitted };
}

afterEach(() => {
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0]}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});

describe('search preview', () => {
  it('runs the draft over 30 days and shows the count, the rate, the days and the newest posts', async () => {
    const requests = server({ data: result() });
    const dialog = await openPreview();
    expect(await within(dialog).findByText('45 matches in the last 30 days')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Expect about 12 a day (8–17) once saved, as in the last 7 days of stored posts.'),
    ).toBeInTheDocument();
    const days = within(dialog).getByRole('list', { name: 'Matches per day' });
    expect(
      within(days)
        .getAllByRole('listitem')
        .map((d) => d.getAttribute('aria-label')),
    ).toEqual(['21 Nov: 0 matches', '22 Nov: 30 matches', '23 Nov: 15 matches']);
    expect(within(dialog).getByText('The newest 2 of 45 matches')).toBeInTheDocument();
    const posts = within(dialog).getAllByRole('article');
    expect(posts.map((p) => p.getAttribute('aria-label'))).toEqual(['Post by Author 1', 'Post by Author 2']);
    expect(within(posts[0]!).getByText('bridge')).toHaveProperty('tagName', 'MARK');

    const sent = requests.filter((r) => `${r.method} ${r.path}` === BACKTEST);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({ name: 'bridge', keywords: 'bridge', group_id: 3, days: 30 });
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/v1/monitor/searches')).toBe(false);
  });

  it('runs again over the window chosen', async () => {
    const requests = server((request: { body: { days: number } }) => ({
      data: result({ count: request.body.days === 7 ? 3 : 45 }),
    }));
    const { dialog } = await renderPreview();
    await within(dialog).findByText('45 matches in the last 30 days');
    await user.click(within(dialog).getByRole('combobox', { name: 'Stored posts of' }));
    await user.click(await screen.findByRole('option', { name: 'the last 7 days' }));
    expect(await within(dialog).findByText('3 matches in the last 7 days')).toBeInTheDocument();
    expect(
      requests.filter((r) => `${r.method} ${r.path}` === BACKTEST).map((r) => (r.body as { days: number }).days),
    ).toEqual([30, 7]);
  });

  it('says when nothing matches, and what to do', async () => {
    server({
      data: result({ count: 0, expectedPerDay: 0, samples: [], expected: { perDay: 0, low: 0, high: 0, days: 7 } }),
    });
    const { dialog } = await renderPreview();
    expect(await within(dialog).findByText(/No stored post of the last 30 days matches/)).toBeInTheDocument();
    expect(within(dialog).getByText(/Expect none a day/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('article')).not.toBeInTheDocument();
  });

  it('warns when the search is too broad to check every stored post', async () => {
    server({
      data: result({
        truncated: true,
        coveredFrom: 1_795_400_000,
        expectedPerDay: 5200,
        expected: { perDay: 5200, low: 5200, high: 5200, days: 0 },
        backfill: [],
      }),
    });
    const { dialog } = await renderPreview();
    expect(await within(dialog).findByText(/too broadly to check every stored post/)).toBeInTheDocument();
    expect(within(dialog).getByText(/Expect about 5,200 a day/)).toBeInTheDocument();
  });

  it('says so when not even the newest posts could be checked in time', async () => {
    server({ data: result({ truncated: true, scanned: 0, count: 0, expectedPerDay: 0, samples: [] }) });
    const { dialog } = await renderPreview();
    expect(await within(dialog).findByText(/too broadly to preview/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/Expect/)).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/No stored post/)).not.toBeInTheDocument();
  });

  it('shows why the preview failed, tries again, and goes back to the search', async () => {
    let calls = 0;
    server(() => {
      calls++;
      return calls === 1
        ? new Reply(422, {
            message: 'The given data was invalid.',
            errors: { search_filters: ['You must be the owner of the Filter to do so'] },
          })
        : { data: result() };
    });
    const dialog = await openPreview();
    expect(await within(dialog).findByText('You must be the owner of the Filter to do so')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('45 matches in the last 30 days')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Back to the search' }));
    expect(await screen.findByRole('dialog', { name: 'New saved search' })).toBeInTheDocument();
  });

  it('creates the search from the preview', async () => {
    const backfill = {
      monitorSearchId: 42,
      days: 7,
      status: 'running' as const,
      scanned: 0,
      added: 0,
      startedAt: 1,
      updatedAt: 1,
    };
    const requests = server(
      { data: result() },
      { 'POST /api/v1/monitor/searches': new Reply(201, { data: testSearch(42, { value: 'bridge', backfill }) }) },
    );
    const dialog = await openPreview();
    await within(dialog).findByText('45 matches in the last 30 days');
    expect(within(dialog).getByRole('combobox', { name: 'Fill the inbox with stored posts of' })).toHaveTextContent(
      'the last 7 days (37 matches)',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(created(requests)).toEqual([7]));
    expect(
      await screen.findByText(/Its inbox is being filled with the matching posts stored in the last 7 days/),
    ).toBeInTheDocument();
  });

  it('fills the inbox with the days chosen, each shown with what it brings in, or with nothing', async () => {
    // That the days chosen reach the server's create request is the test above.
    for (const [choice, days] of [
      ['the last 3 days (9 matches)', 3],
      ['nothing: only new posts', 0],
    ] as const) {
      server({ data: result() });
      const { dialog, submitted } = await renderPreview();
      await within(dialog).findByText('45 matches in the last 30 days');
      await user.click(within(dialog).getByRole('combobox', { name: 'Fill the inbox with stored posts of' }));
      await user.click(await screen.findByRole('option', { name: choice }));
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(submitted).toEqual([days]);
      cleanup();
    }
  });

  it('offers the days the preview did not cover without a count', async () => {
    server({ data: result({ backfill: [3, 5, 9, 14, 20, 28, 37] }) });
    const { dialog } = await renderPreview();
    await within(dialog).findByText('45 matches in the last 30 days');
    await user.click(within(dialog).getByRole('combobox', { name: 'Fill the inbox with stored posts of' }));
    expect(await screen.findByRole('option', { name: 'the last 14 days' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'the last day (3 matches)' })).toBeInTheDocument();
  });
});

/** The backfillDays of each create request. */
function created(requests: { method: string; path: string; body: unknown }[]) {
  return requests
    .filter((r) => r.method === 'POST' && r.path === '/api/v1/monitor/searches')
    .map((r) => (r.body as { backfillDays: number }).backfillDays);
}
