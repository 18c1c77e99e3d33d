import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Reply, fakeServer } from '../../test/fakeServer';
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
    renderApp('/locate/saved', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Resume Harbour' }));
    const limit = await screen.findByRole('dialog', { name: 'Data Limits Reached' });
    expect(limit).toHaveTextContent('collected its 500 results for this month');
    expect(within(limit).getByRole('link', { name: 'Contact support' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(limit).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Data Limits Reached' })).not.toBeInTheDocument();
  });

  it('says what to do when there is none', async () => {
    fakeServer({ 'GET /api/v1/monitor/searches': { data: [] } });
    renderApp('/locate/saved', { profile: testProfile() });
    expect(await screen.findByText('No saved searches yet')).toBeInTheDocument();
  });
});
