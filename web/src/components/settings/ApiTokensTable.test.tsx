import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { OwnApiToken } from '../../api/settings';
import { fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });
const now = Math.floor(Date.now() / 1000);

function token(id: number, name: string, overrides: Partial<OwnApiToken> = {}): OwnApiToken {
  return {
    id,
    name,
    scopes: [],
    expiresAt: 0,
    lastUsedAt: 0,
    createdAt: now - 3600,
    revokedAt: 0,
    createdBy: null,
    ...overrides,
  };
}

describe('API tokens in Settings', () => {
  it('lists the tokens acting as the user, with who made them, and revokes one after a confirmation', async () => {
    let tokens = [
      token(1, 'my script'),
      token(2, 'feeder', { scopes: ['ingest'], expiresAt: now + 86_400, createdBy: { id: 9, name: 'Tess Admin' } }),
    ];
    const requests = fakeServer({
      'GET /api/v1/settings/tokens': () => ({ data: tokens }),
      'DELETE /api/v1/settings/tokens/2': () => {
        tokens = tokens.map((t) => (t.id === 2 ? { ...t, revokedAt: now } : t));
        return { data: tokens[1] };
      },
    });
    renderApp('/settings', { profile: testProfile() });
    const table = await screen.findByRole('table', { name: 'Your API tokens' });
    const feeder = within(table).getByText('feeder').closest('tr') as HTMLElement;
    expect(feeder).toHaveTextContent('Tess Admin (tenant administrator)');
    expect(feeder).toHaveTextContent('Ingest only');
    expect(within(table).getByText('my script').closest('tr')).toHaveTextContent('You');

    await user.click(within(feeder).getByRole('button', { name: 'Revoke feeder' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke feeder?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('feeder revoked')).toBeInTheDocument();
    await waitFor(() => expect(within(table).getByText('feeder').closest('tr')).toHaveTextContent('Revoked'));
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/v1/settings/tokens/2']);
  });
});
