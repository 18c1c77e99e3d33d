import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MonitorSearch } from '../../api/monitor';
import { fakeServer } from '../../test/fakeServer';
import { testGroup, testProfile, testProviders, testSearch } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });

function searchServer(search: MonitorSearch) {
  return fakeServer({
    'GET /api/v1/monitor/searches/9': { data: search },
    'GET /api/v1/monitor/providers': { data: testProviders },
    'GET /api/v1/monitor/monitor-search-groups': { data: [testGroup(3, { name: 'Protests' })] },
    'GET /api/v1/filter-lists/': { data: [] },
    'PATCH /api/v1/monitor/searches/settings/9/enable': { data: { ...search, enabled: false, status: 'paused' } },
    'PATCH /api/v1/monitor/searches/settings/9/streamingOverride': { data: search },
  });
}

describe('saved-search page', () => {
  it('duplicates the search into the builder with the copy suffix and its group', async () => {
    searchServer(testSearch(9, { value: 'Bridge closures' }));
    renderApp('/monitor/9', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Actions for Bridge closures' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Duplicate' }));
    const builder = await screen.findByRole('dialog', { name: 'New saved search' });
    expect(await within(builder).findByLabelText(/Search name/)).toHaveValue('Bridge closures (copy)');
    expect(within(builder).getByRole('combobox', { name: /Group/ })).toHaveTextContent('Protests');
    expect(within(builder).getByLabelText('Keywords')).toHaveValue('bridge');
  });

  it('asks before pausing, warning that posts may be lost', async () => {
    const requests = searchServer(testSearch(9, { value: 'Bridge closures' }));
    renderApp('/monitor/9', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    const confirm = await screen.findByRole('dialog', { name: 'Pause “Bridge closures”?' });
    expect(confirm).toHaveTextContent('posts published meanwhile may be lost');
    await user.click(within(confirm).getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Search paused')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ enabled: false });
  });

  it('offers to raise the streaming limit for 24 hours', async () => {
    const requests = searchServer(testSearch(9, { value: 'Bridge closures', streamingLowerLimitExceeded: true }));
    renderApp('/monitor/9', { profile: testProfile() });
    expect(await screen.findByText(/Near-real-time data is paused for this search/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Raise for 24 hours' }));
    expect(await screen.findByText('Streaming reactivated')).toBeInTheDocument();
    await waitFor(() =>
      expect(requests.find((r) => r.path.endsWith('/streamingOverride'))?.body).toEqual({
        percolate_limiter_override: true,
      }),
    );
  });

  it('offers no override when the firehose exceeds even the raised limit', async () => {
    searchServer(testSearch(9, { value: 'Bridge closures', gnipUpperLimitExceeded: true }));
    renderApp('/monitor/9', { profile: testProfile() });
    expect(await screen.findByText(/X Firehose stays disabled for this search/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Raise for 6 hours' })).not.toBeInTheDocument();
  });
});
