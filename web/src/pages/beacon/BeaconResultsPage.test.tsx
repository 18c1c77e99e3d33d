import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchBuilderProvider } from '../../components/searchBuilder/SearchBuilderProvider';
import { fakeServer } from '../../test/fakeServer';
import { testProfile, testProvider } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { BeaconResultsPage } from './BeaconResultsPage';

const pastes = testProvider('pastebin', { displayName: 'Pastes', category: 'documents' });
// On the catalogue, but not enabled on this server: the server refuses a search naming it.
const hostData = testProvider('infectedhostdata', { category: 'documents', enabled: false });
const x = testProvider('twitter', { displayName: 'X' });
const noResults = { data: { documents: [], count: 0, totalCount: 0, searchId: '', suggestions: [] } };

function renderResults(path: string, providers = [pastes, hostData, x]) {
  const requests = fakeServer({
    'GET /api/v1/monitor/providers': { data: providers },
    'POST /beacon/v1/documents': noResults,
    'POST /beacon/v1/all': noResults,
  });
  renderWithApp(
    <SearchBuilderProvider>
      <BeaconResultsPage />
    </SearchBuilderProvider>,
    { profile: testProfile(), path },
  );
  return requests;
}

const tabNames = () =>
  within(screen.getByRole('tablist', { name: 'Result categories' }))
    .getAllByRole('tab')
    .map((t) => t.textContent);

describe('Beacon results tabs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows only tabs with an available data source, and searches only those', async () => {
    const requests = renderResults('/beacon/results?q=bridge&tab=records');
    await waitFor(() => expect(tabNames()).toEqual(['Results', 'Records', 'Social', 'Flagged']));
    expect(screen.getByRole('tab', { name: 'Records' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(requests.some((r) => r.path === '/beacon/v1/documents')).toBe(true));
    expect(requests.find((r) => r.path === '/beacon/v1/documents')?.body).toMatchObject({ providers: ['pastebin'] });
  });

  it('leaves out a tab none of whose sources is available; a link to it lands on Results', async () => {
    const requests = renderResults('/beacon/results?q=bridge&tab=records', [hostData, x]);
    await waitFor(() => expect(tabNames()).toEqual(['Results', 'Social', 'Flagged']));
    expect(screen.getByRole('tab', { name: 'Results' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(requests.some((r) => r.path === '/beacon/v1/all')).toBe(true));
    expect(requests.some((r) => r.path === '/beacon/v1/documents')).toBe(false);
  });
});
