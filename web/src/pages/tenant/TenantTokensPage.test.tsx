import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TenantToken, TenantUser } from '../../api/tenant';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { endOfDay } from '../../lib/tenantLabels';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });
const admin = testProfile({ is_tenant_admin: true });
const bob = { id: 2, name: 'Bob', email: 'bob@example.test', disabled: false, is_tenant_admin: false } as TenantUser;
const carol = {
  id: 3,
  name: 'Carol',
  email: 'carol@example.test',
  disabled: false,
  is_tenant_admin: true,
} as TenantUser;
const SECRET = 'slt_the-secret-value';

describe('tenant API tokens', () => {
  it('creates a scoped, expiring token for a user, shows its secret once with copy, and revokes it after a confirmation', async () => {
    let tokens: TenantToken[] = [];
    const requests = fakeServer({
      'GET /api/v1/tenant/tokens': () => ({ data: tokens }),
      'GET /api/v1/tenant/users': { data: [bob, carol] },
      'POST /api/v1/tenant/tokens': () => {
        const token: TenantToken = {
          id: 7,
          name: 'ci',
          user: { id: 2, name: 'Bob', email: 'bob@example.test', disabled: false },
          scopes: ['ingest'],
          expiresAt: endOfDay('2027-01-31'),
          lastUsedAt: 0,
          createdAt: 1_790_000_000,
          revokedAt: 0,
          createdBy: { id: 1, name: 'Ada' },
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
    // Another tenant administrator is not offered: they make their own tokens.
    expect(screen.queryByRole('option', { name: /carol@example.test/ })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Bob (bob@example.test)' }));
    // A token for someone else is limited to a scope and must expire.
    expect(within(dialog).getByRole('combobox', { name: 'Scope' })).toHaveTextContent('Ingest only');
    expect(within(dialog).getByLabelText(/Expires on/)).toBeRequired();
    fireEvent.change(within(dialog).getByLabelText(/Expires on/), { target: { value: '2027-01-31' } });
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));

    const shown = await screen.findByRole('dialog', { name: 'Token ci created' });
    expect(within(shown).getByRole('textbox', { name: 'API token' })).toHaveValue(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Copy the token' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'ci',
      userId: 2,
      scopes: ['ingest'],
      expiresAt: endOfDay('2027-01-31'),
    });

    const table = await screen.findByRole('table', { name: 'API tokens' });
    const row = within(table).getByText('ci').closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('Bob (bob@example.test)');
    expect(row).toHaveTextContent('Active');
    expect(row).toHaveTextContent('Ada');
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Revoke ci of bob@example.test' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke ci?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(table).getByText('ci').closest('tr')).toHaveTextContent('Revoked'));
    expect(within(table).queryByRole('button', { name: /^Revoke/ })).not.toBeInTheDocument();
  });
});
