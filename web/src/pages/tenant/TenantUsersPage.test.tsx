import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TenantOrganization, TenantUser } from '../../api/tenant';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });

function tenantUser(id: number, name: string, email: string, overrides: Partial<TenantUser> = {}): TenantUser {
  return {
    id,
    name,
    email,
    organization: { id: 1, name: 'Acme' },
    role: 'member',
    is_tenant_admin: false,
    is_mfa_enabled: false,
    acl: { beacon: true, pro: true, enterprise: false, locate_api: false },
    disabled: false,
    disabledAt: 0,
    createdAt: 1_790_000_000,
    ...overrides,
  };
}

const acme = { id: 1, name: 'Acme' } as TenantOrganization;
const admin = testProfile({ id: 1, is_tenant_admin: true });

describe('tenant users', () => {
  it('says what to do when there are none', async () => {
    fakeServer({ 'GET /api/v1/tenant/users': { data: [] }, 'GET /api/v1/tenant/organizations': { data: [acme] } });
    renderApp('/tenant/users', { profile: admin });
    expect(await screen.findByRole('heading', { name: 'No users yet' })).toBeInTheDocument();
  });

  it('creates a user, showing the server’s field errors, and changes, disables and enables one', async () => {
    let users = [
      tenantUser(1, 'Ada Analyst', 'ada@example.test', { is_tenant_admin: true, role: 'owner' }),
      tenantUser(2, 'Bob', 'bob@example.test'),
    ];
    let attempts = 0;
    const requests = fakeServer({
      'GET /api/v1/tenant/users': () => ({ data: users }),
      'GET /api/v1/tenant/organizations': { data: [acme] },
      'POST /api/v1/tenant/users': () => {
        attempts++;
        if (attempts === 1)
          return new Reply(422, {
            message: 'The password must be at least 12 characters.',
            errors: { password: ['The password must be at least 12 characters.'] },
          });
        const created = tenantUser(3, 'Cleo', 'cleo@example.test');
        users = [...users, created];
        return new Reply(201, { data: created });
      },
      'PUT /api/v1/tenant/users/2': () => {
        users = users.map((u) => (u.id === 2 ? { ...u, role: 'admin' } : u));
        return { data: users[1] };
      },
      'PUT /api/v1/tenant/users/2/disable': () => {
        users = users.map((u) => (u.id === 2 ? { ...u, disabled: true } : u));
        return { data: users[1] };
      },
      'PUT /api/v1/tenant/users/2/enable': () => {
        users = users.map((u) => (u.id === 2 ? { ...u, disabled: false } : u));
        return { data: users[1] };
      },
    });
    renderApp('/tenant/users', { profile: admin });
    const table = await screen.findByRole('table', { name: 'Users' });
    const me = within(table).getByText('ada@example.test').closest('tr') as HTMLElement;
    expect(within(me).getByText('You')).toBeInTheDocument();
    expect(within(me).queryByRole('button')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a user' });
    await user.type(within(dialog).getByLabelText('Name'), 'Cleo');
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'cleo@example.test');
    await user.type(within(dialog).getByLabelText(/First password/), 'short');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Locate API' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('The password must be at least 12 characters.')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/First password/));
    await user.type(within(dialog).getByLabelText(/First password/), 'a-long-first-password');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(table).findByText('cleo@example.test')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').at(-1)?.body).toEqual({
      name: 'Cleo',
      email: 'cleo@example.test',
      organizationId: 1,
      role: 'member',
      acl: { beacon: true, pro: true, enterprise: false, locate_api: true },
      password: 'a-long-first-password',
    });

    await user.click(within(table).getByRole('button', { name: 'Change Bob' }));
    const edit = await screen.findByRole('dialog', { name: 'Change Bob' });
    await user.click(within(edit).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Admin' }));
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(table).getByRole('button', { name: 'Disable Bob' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disable Bob?' });
    await user.click(within(confirm).getByRole('button', { name: 'Disable' }));
    await user.click(await within(table).findByRole('button', { name: 'Enable Bob' }));
    expect(await within(table).findByRole('button', { name: 'Disable Bob' })).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      [
        '/api/v1/tenant/users/2',
        { role: 'admin', acl: { beacon: true, pro: true, enterprise: false, locate_api: false } },
      ],
      ['/api/v1/tenant/users/2/disable', {}],
      ['/api/v1/tenant/users/2/enable', {}],
    ]);
  });

  it('resets the two-step verification of a user who has it on, after a confirmation', async () => {
    let users = [
      tenantUser(1, 'Ada Analyst', 'ada@example.test', { is_tenant_admin: true, role: 'owner' }),
      tenantUser(2, 'Bob', 'bob@example.test', { is_mfa_enabled: true }),
      tenantUser(3, 'Cleo', 'cleo@example.test'),
    ];
    const requests = fakeServer({
      'GET /api/v1/tenant/users': () => ({ data: users }),
      'GET /api/v1/tenant/organizations': { data: [acme] },
      'PUT /api/v1/tenant/users/2/reset-mfa': () => {
        users = users.map((u) => (u.id === 2 ? { ...u, is_mfa_enabled: false } : u));
        return { data: users[1] };
      },
    });
    renderApp('/tenant/users', { profile: admin });
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(
      within(table).queryByRole('button', { name: 'Reset two-step verification of Cleo' }),
    ).not.toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Reset two-step verification of Bob' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset two-step verification of Bob?' });
    await user.click(within(confirm).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Two-step verification of Bob reset')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(table).queryByRole('button', { name: 'Reset two-step verification of Bob' }),
      ).not.toBeInTheDocument(),
    );
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual(['/api/v1/tenant/users/2/reset-mfa']);
  });
});
