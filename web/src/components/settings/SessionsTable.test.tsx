import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SignedInSession } from '../../api/settings';
import { fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });
const now = Math.floor(Date.now() / 1000);

function session(id: string, device: string, current = false): SignedInSession {
  return { id, device, address: '203.0.113.7', createdAt: now - 3600, lastSeenAt: now - 60, current };
}

describe('sessions in Settings', () => {
  it('marks this device and ends another session, or all others after a confirmation', async () => {
    let sessions = [
      session('1', 'Firefox on Linux', true),
      session('2', 'Safari on iPhone'),
      session('3', 'Chrome on Windows'),
    ];
    const requests = fakeServer({
      'GET /api/v1/settings/sessions': () => ({ data: sessions }),
      'DELETE /api/v1/settings/sessions/2': () => {
        sessions = sessions.filter((s) => s.id !== '2');
        return { data: { ended: 1 } };
      },
      'DELETE /api/v1/settings/sessions': () => {
        sessions = sessions.filter((s) => s.current);
        return { data: { ended: 1 } };
      },
    });
    renderApp('/settings', { profile: testProfile() });
    const table = await screen.findByRole('table', { name: 'Your sessions' });
    expect(within(table).getByText('This device').closest('tr')).toHaveTextContent('Firefox on Linux');
    expect(within(table).getAllByRole('button', { name: /^End the session/ })).toHaveLength(2);

    await user.click(within(table).getByRole('button', { name: /^End the session of Safari on iPhone/ }));
    expect(await screen.findByText('Session ended')).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByText('Safari on iPhone')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'End all other sessions' }));
    const confirm = await screen.findByRole('dialog', { name: 'End every other session?' });
    await user.click(within(confirm).getByRole('button', { name: 'End sessions' }));
    await waitFor(() => expect(within(table).queryByText('Chrome on Windows')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/v1/settings/sessions/2',
      '/api/v1/settings/sessions',
    ]);
    expect(screen.queryByRole('button', { name: 'End all other sessions' })).not.toBeInTheDocument();
  });
});
