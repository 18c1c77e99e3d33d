import { screen, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { DashboardLayout } from '../../api/dashboard';
import { fakeServer, type Request } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });
const LAYOUT = '/api/v1/monitor/dashboard/layout';

const saved: DashboardLayout = {
  rows: [{ widgets: ['result_count', 'unread_count'] }, { widgets: ['timeline'] }],
};

function server() {
  return fakeServer({
    [`GET ${LAYOUT}`]: { data: saved },
    [`PUT ${LAYOUT}`]: (r: Request) => ({ data: r.body }),
    'GET /api/v1/monitor/searches': { data: [] },
  });
}

const widgetsOf = (row: number) =>
  within(screen.getByRole('list', { name: `Widgets of row ${row}` }))
    .queryAllByRole('listitem')
    .map((item) => item.textContent);

describe('CustomizePage', () => {
  it('removes and adds widgets, then saves the layout', async () => {
    const requests = server();
    renderApp('/monitor/customize', { profile: testProfile() });
    await screen.findByRole('list', { name: 'Widgets of row 1' });
    expect(widgetsOf(1)).toEqual(['Results', 'Unread results']);
    expect(screen.getByRole('button', { name: 'Save layout' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Remove Unread results' }));
    await user.click(
      within(screen.getByRole('listitem', { name: 'Row 2' })).getByRole('combobox', { name: 'Add a widget' }),
    );
    await user.click(await screen.findByRole('option', { name: 'Threat score' }));
    expect(widgetsOf(2)).toEqual(['Results per day (30 days)', 'Threat score']);

    await user.click(screen.getByRole('button', { name: 'Save layout' }));
    expect(await screen.findByText('Dashboard layout saved')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      rows: [{ widgets: ['result_count'] }, { widgets: ['timeline', 'threat'] }],
    });
  });

  it('discards the changes, and leaves out a row left empty', async () => {
    const requests = server();
    renderApp('/monitor/customize', { profile: testProfile() });
    await screen.findByRole('list', { name: 'Widgets of row 2' });
    await user.click(screen.getByRole('button', { name: 'Remove row 1' }));
    expect(screen.queryByRole('list', { name: 'Widgets of row 2' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(widgetsOf(1)).toEqual(['Results', 'Unread results']);

    await user.click(screen.getByRole('button', { name: 'Remove Results per day (30 days)' }));
    expect(screen.getByText(/This row is empty/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save layout' }));
    await screen.findByText('Dashboard layout saved');
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      rows: [{ widgets: ['result_count', 'unread_count'] }],
    });
  });

  it('asks before leaving with unsaved changes', async () => {
    server();
    const { router } = renderApp('/monitor/customize', { profile: testProfile() });
    await screen.findByRole('list', { name: 'Widgets of row 1' });
    await user.click(screen.getByRole('button', { name: 'Remove Results' }));
    await router.navigate('/monitor/groups');
    const dialog = await screen.findByRole('dialog', { name: 'Save the layout before leaving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/monitor/customize');
    // The dialog closes with a transition; leaving again before it is gone would find the closing one.
    await waitForElementToBeRemoved(dialog);

    await router.navigate('/monitor/groups');
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Save the layout before leaving?' })).getByRole('button', {
        name: 'Discard and leave',
      }),
    );
    expect(router.state.location.pathname).toBe('/monitor/groups');
  });
});
