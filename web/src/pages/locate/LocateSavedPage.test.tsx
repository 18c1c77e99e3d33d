import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchBuilderProvider } from '../../components/searchBuilder/SearchBuilderProvider';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testChange, testFilterList } from '../../test/filterFixtures';
import { testProfile, testSearch } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { LocateSavedPage, SKIP_LOCATE_PAUSE_CONFIRM_COOKIE } from './LocateSavedPage';

const user = userEvent.setup({ delay: null });

function renderPage({ creatingFilter = false } = {}) {
  return renderWithApp(
    <SearchBuilderProvider>
      <LocateSavedPage creatingFilter={creatingFilter} />
    </SearchBuilderProvider>,
    { profile: testProfile(), path: creatingFilter ? '/locate/saved/search-filters/new' : '/locate/saved' },
  );
}

afterEach(() => {
  document.cookie = `${SKIP_LOCATE_PAUSE_CONFIRM_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
});

describe('Locate’s saved searches', () => {
  it('lists Monitor’s searches and pauses one after confirming', async () => {
    const active = testSearch(9, { value: 'Lyon docks' });
    const paused = testSearch(10, { value: 'Harbour', enabled: false, status: 'paused' });
    const requests = fakeServer({
      'GET /api/v1/monitor/searches': { data: [active, paused] },
      'PATCH /api/v1/monitor/searches/settings/9/enable': { data: { ...active, enabled: false, status: 'paused' } },
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Saved searches' });
    expect(within(table).getByRole('link', { name: 'Lyon docks' })).toHaveAttribute('href', '/monitor/9');
    expect(within(table).getByRole('button', { name: 'Resume Harbour' })).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Pause Lyon docks' }));
    const confirm = await screen.findByRole('dialog', { name: 'Pause “Lyon docks”?' });
    expect(confirm).toHaveTextContent('posts published meanwhile may be lost even after you resume it');
    await user.click(within(confirm).getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Search paused')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ enabled: false });
    expect(document.cookie).not.toContain(SKIP_LOCATE_PAUSE_CONFIRM_COOKIE);
  });

  // Search-side.md section 4: the pause confirmation can be dismissed permanently.
  it('pauses without asking again once "Do not show again" was ticked', async () => {
    const docks = testSearch(9, { value: 'Lyon docks' });
    const harbour = testSearch(10, { value: 'Harbour' });
    const requests = fakeServer({
      'GET /api/v1/monitor/searches': { data: [docks, harbour] },
      'PATCH /api/v1/monitor/searches/settings/9/enable': { data: { ...docks, enabled: false, status: 'paused' } },
      'PATCH /api/v1/monitor/searches/settings/10/enable': { data: { ...harbour, enabled: false, status: 'paused' } },
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Saved searches' });
    await user.click(within(table).getByRole('button', { name: 'Pause Lyon docks' }));
    const confirm = await screen.findByRole('dialog', { name: 'Pause “Lyon docks”?' });
    await user.click(within(confirm).getByRole('checkbox', { name: 'Do not show again' }));
    await user.click(within(confirm).getByRole('button', { name: 'Pause' }));
    expect(document.cookie).toContain(`${SKIP_LOCATE_PAUSE_CONFIRM_COOKIE}=1`);
    await waitFor(() => expect(confirm).not.toBeInTheDocument());

    await user.click(await screen.findByRole('button', { name: 'Pause Harbour' }));
    await screen.findAllByText('Search paused');
    expect(screen.queryByRole('dialog', { name: 'Pause “Harbour”?' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual([
      '/api/v1/monitor/searches/settings/9/enable',
      '/api/v1/monitor/searches/settings/10/enable',
    ]);
  });

  // Search-side.md section 4: hidden streams can be shown or hidden again.
  it('hides a stream, shows the hidden ones on request and shows one again', async () => {
    const docks = testSearch(9, { value: 'Lyon docks' });
    const harbour = testSearch(10, { value: 'Harbour', hidden: true });
    let listed = [docks, harbour];
    const requests = fakeServer({
      'GET /api/v1/monitor/searches': () => ({ data: listed }),
      'PATCH /api/v1/monitor/searches/settings/9/hidden': () => {
        listed = [{ ...docks, hidden: true }, harbour];
        return { data: listed[0] };
      },
      'PATCH /api/v1/monitor/searches/settings/10/hidden': () => {
        listed = [
          { ...docks, hidden: true },
          { ...harbour, hidden: false },
        ];
        return { data: listed[1] };
      },
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Saved searches' });
    expect(within(table).getByRole('link', { name: 'Lyon docks' })).toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: 'Harbour' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 hidden stream.');

    await user.click(within(table).getByRole('button', { name: 'Hide Lyon docks' }));
    expect(await screen.findByText('“Lyon docks” hidden')).toBeInTheDocument();
    expect(await screen.findByText('Every saved search is hidden')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('2 hidden streams.');

    await user.click(screen.getByRole('switch', { name: 'Show hidden streams' }));
    const all = await screen.findByRole('table', { name: 'Saved searches' });
    expect(within(all).getAllByText('Hidden')).toHaveLength(2);
    await user.click(within(all).getByRole('button', { name: 'Show Harbour' }));
    expect(await screen.findByText('“Harbour” shown again')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Show hidden streams' }));
    const visible = await screen.findByRole('table', { name: 'Saved searches' });
    expect(within(visible).getByRole('link', { name: 'Harbour' })).toBeInTheDocument();
    expect(within(visible).queryByRole('link', { name: 'Lyon docks' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
      { hidden: true },
      { hidden: false },
    ]);
  });

  // Issue 29: the spec's Data Limits Reached dialog, not a snackbar.
  it('shows the Data Limits Reached dialog when resuming is past the monthly data limit', async () => {
    const paused = testSearch(10, { value: 'Harbour', enabled: false, status: 'paused' });
    fakeServer({
      'GET /api/v1/monitor/searches': { data: [paused] },
      'PATCH /api/v1/monitor/searches/settings/10/enable': new Reply(422, {
        message: 'Data Limits Reached',
        limitExceeded: true,
        title: 'Data Limits Reached',
        description:
          'Your organization has collected its 500 results for this month. Contact support to raise the limit.',
      }),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Resume Harbour' }));
    const limit = await screen.findByRole('dialog', { name: 'Data Limits Reached' });
    expect(limit).toHaveTextContent('collected its 500 results for this month');
    expect(within(limit).getByRole('link', { name: 'Contact support' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(limit).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Data Limits Reached' })).not.toBeInTheDocument();
  });

  // Search-side.md section 2: the saved-search create modal; saved searches filter by objects too.
  it('creates a search filter in the saved-search modal, object detection allowed', async () => {
    const created = testFilterList(15, { name: 'Weapons', type: 'object_detection', kind: 'object_detection' });
    const requests = fakeServer({
      'GET /api/v1/monitor/searches': { data: [testSearch(9, { value: 'Lyon docks' })] },
      'POST /api/v1/filter-lists/': new Reply(201, testChange(created)),
    });
    const { router } = renderPage({ creatingFilter: true });
    const dialog = await screen.findByRole('dialog', { name: 'Create search filter' });
    expect(dialog).toHaveTextContent('Attach it to a saved search in the search builder’s Search filters panel.');
    await user.click(within(dialog).getByRole('combobox', { name: 'Kind' }));
    expect(screen.getByRole('option', { name: /Object detection/ })).not.toHaveAttribute('aria-disabled');
    await user.click(screen.getByRole('option', { name: /Author exclusion/ }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Bots');
    await user.type(within(dialog).getByRole('textbox', { name: 'Authors' }), 'promo_bot');
    await user.click(within(dialog).getByRole('button', { name: 'Create filter list' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locate/saved'));
    expect(await screen.findByText(/Search filter “Weapons” created\./)).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Bots',
      type: 'author',
      authors: ['promo_bot'],
    });
  });

  it('says what to do when there is none', async () => {
    fakeServer({ 'GET /api/v1/monitor/searches': { data: [] } });
    renderPage();
    expect(await screen.findByText('No saved searches yet')).toBeInTheDocument();
  });
});
