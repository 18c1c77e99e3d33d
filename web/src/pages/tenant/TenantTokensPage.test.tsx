import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TenantToken, TenantUser } from '../../api/tenant';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });
const admin = testProfile({ is_tenant_admin: true });
const bob = { id: 2, name: 'Bob', email: 'bob@example.test', disabled: false } as TenantUser;
const SECRET = 'slt_the-secret-value';

describe('tenant API tokens', () => {
  it('creates a token, shows its secret once with copy, and revokes it after a confirmation', async () => {
    let tokens: TenantToken[] = [];
    const requests = fakeServer({
      'GET /api/v1/tenant/tokens': () => ({ data: tokens }),
      'GET /api/v1/tenant/users': { data: [bob] },
      'POST /api/v1/tenant/tokens': () => {
        const token: TenantToken = {
          id: 7,
          name: 'ci',
          user: { id: 2, name: 'Bob', email: 'bob@example.test', disabled: false },
          scopes: [],
          expiresAt: 0,
          lastUsedAt: 0,
          createdAt: 1_790_000_000,
          revokedAt: 0,
        };
        tokens = [token];
        return new Reply(201, { data: { ...token, token: SECRET } });
      },
      'DELETE /api/v1/tenant/tokens/7': () => {
        tokens = tokens.map((t) => ({ ...t, revokedAt: 1_790_000_100 }));
        return { data: tokens[0] };
      },
    });
    renderApp('/tenant/tokens', { profile: admin });
    expect(await screen.findByRole('heading', { name: 'No API tokens yet' })).toBeInTheDocument();

    await user.click(screen.getAllByRole('button', { name: 'Create token' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Create an API token' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'ci');
    await user.click(within(dialog).getByRole('combobox', { name: 'User' }));
    await user.click(await screen.findByRole('option', { name: 'Bob (bob@example.test)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));

    const shown = await screen.findByRole('dialog', { name: 'Token ci created' });
    expect(within(shown).getByRole('textbox', { name: 'API token' })).toHaveValue(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Copy the token' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'ci',
      userId: 2,
      scopes: [],
      expiresAt: 0,
    });

    const table = await screen.findByRole('table', { name: 'API tokens' });
    const row = within(table).getByText('ci').closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('Bob (bob@example.test)');
    expect(row).toHaveTextContent('Active');
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Revoke ci of bob@example.test' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke ci?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(table).getByText('ci').closest('tr')).toHaveTextContent('Revoked'));
    expect(within(table).queryByRole('button', { name: /^Revoke/ })).not.toBeInTheDocument();
  });
});
