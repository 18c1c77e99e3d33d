import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test/fakeServer';
import { testProfile, testSearch } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });

describe('Locate’s saved searches', () => {
  it('lists Monitor’s searches and pauses one after confirming', async () => {
    const active = testSearch(9, { value: 'Lyon docks' });
    const paused = testSearch(10, { value: 'Harbour', enabled: false, status: 'paused' });
    const requests = fakeServer({
      'GET /api/v1/monitor/searches': { data: [active, paused] },
      'PATCH /api/v1/monitor/searches/settings/9/enable': { data: { ...active, enabled: false, status: 'paused' } },
    });
    renderApp('/locate/saved', { profile: testProfile() });
    const table = await screen.findByRole('table', { name: 'Saved searches' });
    expect(within(table).getByRole('link', { name: 'Lyon docks' })).toHaveAttribute('href', '/monitor/9');
    expect(within(table).getByRole('button', { name: 'Resume Harbour' })).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Pause Lyon docks' }));
    const confirm = await screen.findByRole('dialog', { name: 'Pause “Lyon docks”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Search paused')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ enabled: false });
  });

  it('says what to do when there is none', async () => {
    fakeServer({ 'GET /api/v1/monitor/searches': { data: [] } });
    renderApp('/locate/saved', { profile: testProfile() });
    expect(await screen.findByText('No saved searches yet')).toBeInTheDocument();
  });
});
