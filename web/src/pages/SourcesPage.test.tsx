import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Source, SourceHealth } from '../api/sources';
import { Reply, fakeServer, type Request } from '../test/fakeServer';
import { testProfile } from '../test/fixtures';
import { renderApp } from '../test/renderApp';

const user = userEvent.setup({ delay: null });

function health(overrides: Partial<SourceHealth> = {}): SourceHealth {
  return {
    id: 1,
    name: 'Gazette',
    type: 'rss',
    state: 'ok',
    itemsLastHour: 12,
    minutes: Array.from({ length: 60 }, (_, i) => i % 5),
    lagSeconds: 120,
    silenceSeconds: 30,
    gap: false,
    retries: 0,
    deadLettered: 0,
    lastSuccess: new Date().toISOString(),
    ...overrides,
  };
}

function source(overrides: Partial<Source> = {}): Source {
  return {
    id: 1,
    type: 'rss',
    name: 'Gazette',
    config: { url: 'https://news.example.org/rss.xml' },
    enabled: true,
    createdAt: '2026-11-25T06:00:00Z',
    updatedAt: '2026-11-25T06:00:00Z',
    health: health(),
    ...overrides,
  };
}

const admin = testProfile({ is_tenant_admin: true });

describe('sources page', () => {
  it('lists the sources with their health and a warning while one fails', async () => {
    fakeServer({
      'GET /api/v1/sources': {
        data: [
          source(),
          source({
            id: 2,
            name: 'Broken feed',
            health: health({
              id: 2,
              state: 'failing',
              lastError: { at: new Date().toISOString(), message: 'GET x: 500' },
            }),
          }),
        ],
      },
      'GET /api/v1/sources/types': { data: ['bluesky', 'hackernews', 'mastodon', 'rss'] },
      'GET /api/v1/sources/health': { data: { sources: [], failing: 1 } },
    });
    renderApp('/sources', { profile: admin });
    const table = await screen.findByRole('table', { name: 'Sources' });
    expect(within(table).getByText('Failing')).toBeInTheDocument();
    expect(within(table).getByText('GET x: 500')).toBeInTheDocument();
    expect(within(table).getAllByRole('img', { name: '12 items in the last hour, per minute' })).toHaveLength(2);
    expect(screen.getByText(/One source that worked has stopped/)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Sources: 1 failing' })).toHaveAttribute('href', '/sources');
  });

  it('says once that the server is offline, with calm rows, the simulator first and no badge', async () => {
    const offline = 'This server cannot reach the internet: public sources are paused and tried again every minute.';
    const cutOff = (id: number, name: string) =>
      source({
        id,
        name,
        health: health({
          id,
          name,
          state: 'unreachable',
          lastSuccess: undefined,
          lastError: { at: new Date().toISOString(), message: `lookup ${name}: no such host` },
        }),
      });
    fakeServer({
      'GET /api/v1/sources': { data: [cutOff(1, 'Gazette'), cutOff(2, 'Herald'), cutOff(3, 'Courier')] },
      'GET /api/v1/sources/types': { data: ['rss'] },
      'GET /api/v1/sources/health': {
        data: {
          sources: [],
          failing: 0,
          offline: true,
          message: offline,
          builtIn: [
            {
              kind: 'node',
              name: 'simulator',
              state: 'running',
              ratePerSecond: 5,
              itemsLastHour: null,
              count: 300,
              lastSuccess: new Date().toISOString(),
            },
          ],
        },
      },
    });
    renderApp('/sources', { profile: admin });
    const table = await screen.findByRole('table', { name: 'Sources' });
    // Offline, the simulator is all that brings posts: its table comes before the paused sources.
    const builtIn = await screen.findByRole('table', { name: 'Built-in sources' });
    expect(builtIn.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(builtIn).getByText('5 per second (set)')).toBeInTheDocument();
    expect(await screen.findByText(offline)).toBeInTheDocument();
    expect(within(table).getAllByText('Waiting for the network')).toHaveLength(3);
    expect(within(table).queryByText(/no such host/)).not.toBeInTheDocument();
    expect(within(table).queryByText('Unreachable')).not.toBeInTheDocument();
    expect(screen.queryByText(/stopped/)).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Sources' })).toHaveAttribute('href', '/sources');
  });

  it('says when the ingest pipeline is behind, on the page and on the top bar badge', async () => {
    const delayed =
      'New posts are delayed: more than 50000 are waiting to be stored and matched against saved searches.';
    fakeServer({
      'GET /api/v1/sources': { data: [source()] },
      'GET /api/v1/sources/types': { data: ['rss'] },
      'GET /api/v1/sources/health': {
        data: { sources: [], failing: 0, warnings: [{ kind: 'pipeline-lag', message: delayed }] },
      },
    });
    renderApp('/sources', { profile: admin });
    expect(await screen.findByText(delayed)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: `Sources: ${delayed}` })).toHaveAttribute('href', '/sources');
  });

  it('adds a source: Test shows the preview, Save sends type, name, config and enabled, errors land on their field', async () => {
    let saved = false;
    const requests = fakeServer({
      'GET /api/v1/sources': () => ({ data: saved ? [source({ id: 3, name: 'Loopback' })] : [] }),
      'GET /api/v1/sources/types': { data: ['hackernews', 'reddit', 'rss'] },
      'GET /api/v1/sources/health': { data: { sources: [], failing: 0 } },
      'POST /api/v1/sources/test': {
        data: {
          ok: true,
          items: [
            {
              provider: 'news',
              native_id: 'a',
              title_text: 'Protest in the square',
              published_at: '2026-11-25T05:00:00Z',
            },
          ],
        },
      },
      'POST /api/v1/sources': (request: Request) => {
        const body = request.body as { name: string };
        if (body.name === 'Taken')
          return new Reply(422, { message: 'x', errors: { name: ['A source named "Taken" exists already.'] } });
        saved = true;
        return { data: source({ id: 3, name: 'Loopback' }) };
      },
    });
    renderApp('/sources', { profile: admin });
    const [add] = await screen.findAllByRole('button', { name: 'Add source' });
    if (!add) throw new Error('no Add source button');
    await waitFor(() => expect(add).toBeEnabled());
    await user.click(add);
    const dialog = await screen.findByRole('dialog', { name: 'Add source' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'Taken');
    await user.type(within(dialog).getByLabelText(/^Feed address/), 'http://127.0.0.1:9/rss');
    await user.click(within(dialog).getByRole('button', { name: 'Test' }));
    expect(await within(dialog).findByText('Protest in the square')).toBeInTheDocument();
    expect(within(dialog).getByText(/One post would be stored/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A source named "Taken" exists already.')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Name/));
    await user.type(within(dialog).getByLabelText(/^Name/), 'Loopback');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const posts = requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/sources');
    expect(posts.at(-1)?.body).toEqual({
      type: 'rss',
      name: 'Loopback',
      config: { url: 'http://127.0.0.1:9/rss' },
      enabled: true,
    });
    expect(await screen.findByRole('table', { name: 'Sources' })).toHaveTextContent('Loopback');
  });

  it('lists the built-in sources read-only, with their rates, even without sources of the table', async () => {
    fakeServer({
      'GET /api/v1/sources': { data: [] },
      'GET /api/v1/sources/types': { data: ['rss'] },
      'GET /api/v1/sources/health': {
        data: {
          sources: [],
          failing: 0,
          builtIn: [
            {
              kind: 'node',
              name: 'simulator',
              state: 'running',
              ratePerSecond: 5,
              itemsLastHour: null,
              count: 18000,
              lastSuccess: new Date(Date.now() - 5 * 60_000).toISOString(),
            },
            {
              kind: 'ingest',
              name: 'wire-feed',
              userId: 4,
              state: 'running',
              ratePerSecond: null,
              itemsLastHour: 40,
              count: 1200,
            },
            {
              kind: 'ingest',
              name: 'old-feed',
              userId: 4,
              state: 'idle',
              ratePerSecond: null,
              itemsLastHour: 0,
              count: 3,
            },
          ],
        },
      },
    });
    renderApp('/sources', { profile: admin });
    const table = await screen.findByRole('table', { name: 'Built-in sources' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    const posts = (n: number) => new Intl.NumberFormat().format(n);
    expect(rows).toEqual([
      [
        'SimulatorDemo posts, shared by every tenant',
        'Running',
        '5 per second (set)',
        `${posts(18000)} since the server started`,
        '5 min ago',
      ],
      ['wire-feedIngest API token', 'Running', '40 in the last hour', `${posts(1200)} stored`, '–'],
      ['old-feedIngest API token', 'Idle', '0 in the last hour', '3 stored', '–'],
    ]);
    expect(within(table).queryAllByRole('button')).toHaveLength(0);
    expect(within(table).queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('shows no built-in section when there is none', async () => {
    fakeServer({
      'GET /api/v1/sources': { data: [source()] },
      'GET /api/v1/sources/types': { data: ['rss'] },
      'GET /api/v1/sources/health': { data: { sources: [], failing: 0, builtIn: [] } },
    });
    renderApp('/sources', { profile: admin });
    await screen.findByRole('table', { name: 'Sources' });
    expect(screen.queryByRole('heading', { name: 'Built in' })).not.toBeInTheDocument();
  });

  it('tells other users that only tenant admins manage sources, and shows them no link', async () => {
    fakeServer({});
    renderApp('/sources', { profile: testProfile({ is_tenant_admin: false }) });
    expect(await screen.findByText(/Only your tenant’s administrators/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Sources/ })).not.toBeInTheDocument();
  });
});
