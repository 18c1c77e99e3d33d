import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invitation } from '../../api/members';
import type { OrganizationMember } from '../../api/settings';
import { fakeServer, Reply, type Request as FakeRequest } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });
const base = '/api/v1/settings/organizations/1';
const counts = { months: ['2026-10', '2026-11'], counts: { searches: [1, 2], matches: [3, 4], exports: [0, 1] } };
const memberCounts = { months: ['2026-10', '2026-11'], members: [] };

function organization(users: OrganizationMember[]) {
  return { data: { data: { id: 1, name: 'Acme', crm_id: '', users, hasWebhookSecret: false } } };
}

const ada: OrganizationMember = {
  id: 1,
  email: 'ada@example.test',
  username: 'ada',
  name: 'Ada Analyst',
  role: 'owner',
};
const bob: OrganizationMember = {
  id: 2,
  email: 'bob@example.test',
  username: 'bob',
  name: 'Bob Builder',
  role: 'member',
};
const olu: OrganizationMember = { id: 3, email: 'olu@example.test', username: 'olu', name: 'Olu Owner', role: 'owner' };

afterEach(() => vi.unstubAllGlobals());

function statistics() {
  return {
    [`GET ${base}/statistics/beacon/organization-counts-monthly`]: { data: counts },
    [`GET ${base}/statistics/beacon/member-counts-monthly`]: { data: memberCounts },
  };
}

describe('members in Settings', () => {
  it('lets an owner invite a colleague, showing the server’s refusal under the field', async () => {
    let invitations: Invitation[] = [];
    const requests = fakeServer({
      ...statistics(),
      'GET /api/v1/settings/organizations/current': () => organization([ada, bob]),
      [`GET ${base}/invitations`]: () => ({ data: invitations }),
      [`POST ${base}/invitations`]: (r: FakeRequest) => {
        const body = r.body as { email: string; role: Invitation['role'] };
        if (body.email === 'bob@example.test') {
          return new Reply(422, {
            message: 'bob@example.test is already a member of this organization.',
            errors: { email: ['bob@example.test is already a member of this organization.'] },
          });
        }
        invitations = [
          { id: 9, email: body.email, role: body.role, state: 'pending', createdAt: 1, expiresAt: 4_000_000_000 },
        ];
        return { data: invitations[0] };
      },
    });
    renderApp('/settings', { profile: testProfile({ role: 'owner' }) });
    expect(await screen.findByText(/No open invitations/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Invite a colleague' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a colleague' });
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(within(dialog).getByText('Enter the e-mail address to invite.')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: /E-mail address/ }), 'bob@example.test');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(
      await within(dialog).findByText('bob@example.test is already a member of this organization.'),
    ).toBeInTheDocument();

    const email = within(dialog).getByRole('textbox', { name: /E-mail address/ });
    await user.clear(email);
    await user.type(email, 'cy@example.test');
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Owner' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to cy@example.test')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Open invitations' });
    expect(within(table).getByText('cy@example.test').closest('tr')).toHaveTextContent('Owner');
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { email: 'bob@example.test', role: 'member' },
      { email: 'cy@example.test', role: 'owner' },
    ]);
  });

  // The spec's delete-invite modal: nothing is withdrawn before the user confirms.
  it('deletes an invitation only after a confirmation', async () => {
    let invitations: Invitation[] = [
      {
        id: 7,
        email: 'new@example.test',
        role: 'member',
        state: 'pending',
        createdAt: 1_795_000_000,
        expiresAt: 1_795_600_000,
      },
    ];
    const requests = fakeServer({
      ...statistics(),
      'GET /api/v1/settings/organizations/current': organization([ada]),
      [`GET ${base}/invitations`]: () => ({ data: invitations }),
      'DELETE /api/v1/settings/organizations/invitations/7': () => {
        invitations = [];
        return { data: { deleted: true } };
      },
    });
    renderApp('/settings', { profile: testProfile({ role: 'owner', emailDelivery: true }) });
    const table = await screen.findByRole('table', { name: 'Open invitations' });
    await user.click(within(table).getByRole('button', { name: 'Withdraw the invitation to new@example.test' }));
    let confirm = await screen.findByRole('dialog', { name: 'Delete the invitation?' });
    expect(confirm).toHaveTextContent('The invitation to new@example.test stops working');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Delete the invitation?' })).not.toBeInTheDocument(),
    );
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);

    await user.click(within(table).getByRole('button', { name: 'Withdraw the invitation to new@example.test' }));
    confirm = await screen.findByRole('dialog', { name: 'Delete the invitation?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete invitation' }));
    expect(await screen.findByText('The invitation to new@example.test was withdrawn')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('removes a member after a confirmation and changes a role', async () => {
    let users = [ada, bob];
    const requests = fakeServer({
      ...statistics(),
      'GET /api/v1/settings/organizations/current': () => organization(users),
      [`GET ${base}/invitations`]: { data: [] },
      [`PUT ${base}/members/2`]: (r: FakeRequest) => {
        users = users.map((u) =>
          u.id === 2 ? { ...u, role: (r.body as { role: OrganizationMember['role'] }).role } : u,
        );
        return { data: users[1] };
      },
      [`DELETE ${base}/members/2`]: () => {
        users = users.filter((u) => u.id !== 2);
        return { data: { removed: true } };
      },
    });
    renderApp('/settings', { profile: testProfile({ role: 'owner' }) });
    const table = await screen.findByRole('table', { name: 'Members of Acme' });
    await user.click(within(table).getByRole('combobox', { name: 'Role of Bob Builder' }));
    await user.click(await screen.findByRole('option', { name: 'Admin' }));
    expect(await screen.findByText('Bob Builder is now admin')).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Remove Bob Builder' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove Bob Builder?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(table).queryByText('Bob Builder')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT ${base}/members/2`,
      `DELETE ${base}/members/2`,
    ]);
  });

  it('does not let an admin touch owners or grant ownership', async () => {
    fakeServer({
      ...statistics(),
      'GET /api/v1/settings/organizations/current': () => organization([{ ...ada, role: 'admin' }, bob, olu]),
      [`GET ${base}/invitations`]: { data: [] },
    });
    renderApp('/settings', { profile: testProfile({ role: 'admin' }) });
    const table = await screen.findByRole('table', { name: 'Members of Acme' });
    expect(within(table).queryByRole('button', { name: 'Remove Olu Owner' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('combobox', { name: 'Role of Olu Owner' })).not.toBeInTheDocument();
    await user.click(within(table).getByRole('combobox', { name: 'Role of Bob Builder' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Member', 'Admin']);
  });

  it('says when e-mail is off instead of offering invitations, and hides management from members', async () => {
    fakeServer({
      ...statistics(),
      'GET /api/v1/settings/organizations/current': () => organization([ada, bob]),
      [`GET ${base}/invitations`]: { data: [] },
    });
    const { unmount } = renderApp('/settings', { profile: testProfile({ role: 'owner', emailDelivery: false }) });
    expect(await screen.findByText(/E-mail delivery is off on this server/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite a colleague' })).not.toBeInTheDocument();
    unmount();

    renderApp('/settings', { profile: testProfile({ role: 'member' }) });
    const table = await screen.findByRole('table', { name: 'Members of Acme' });
    expect(within(table).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invitations' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Statistics' })).not.toBeInTheDocument();
  });

  it('says in a snackbar when the organization or its invitations cannot be loaded', async () => {
    fakeServer({
      ...statistics(),
      'GET /api/v1/settings/organizations/current': new Reply(500, { message: 'The store is unavailable.' }),
      [`GET ${base}/invitations`]: new Reply(500, { message: 'The store is unavailable.' }),
    });
    renderApp('/settings', { profile: testProfile({ role: 'owner' }) });
    expect(
      await screen.findByText('Your organization’s settings could not be loaded. Please try again.'),
    ).toBeInTheDocument();
    expect(await screen.findAllByText('The store is unavailable.')).not.toHaveLength(0);
  });
});
