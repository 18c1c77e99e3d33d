import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SharingEntry } from '../api/monitor';
import { fakeServer } from '../test/fakeServer';
import { testProfile } from '../test/fixtures';
import { renderWithApp } from '../test/renderApp';
import { SharingDialog, type SharingSave } from './SharingDialog';

const user = userEvent.setup({ delay: null });

const owner = { id: 9, email: 'owner@example.test', username: 'owner', role: 'owner' as const };
const entry = (id: number, overrides: Partial<SharingEntry>): SharingEntry => ({
  id,
  email: `user${id}@example.test`,
  username: `user${id}`,
  name: `User ${id}`,
  role: 'read_only',
  fromGroup: false,
  ...overrides,
});

function renderDialog(props: {
  canManageSharing?: boolean;
  entries?: SharingEntry[];
  onSave?: (s: SharingSave) => Promise<unknown>;
}) {
  fakeServer({
    'GET /api/v1/settings/organizations/current': {
      data: {
        data: {
          id: 1,
          name: 'Default',
          crm_id: '',
          users: [
            { id: 1, email: 'ada@example.test', username: 'ada', name: 'Ada Analyst', role: 'member' },
            { id: 12, email: 'bob@example.test', username: 'bob', name: 'Bob', role: 'member' },
          ],
        },
      },
    },
  });
  const onSave = props.onSave ?? vi.fn(async () => undefined);
  renderWithApp(
    <SharingDialog
      open
      onClose={() => undefined}
      itemName="Protests"
      owner={owner}
      entries={props.entries ?? []}
      privacy="private"
      canManageSharing={props.canManageSharing ?? true}
      shareWithIndividuals
      saving={false}
      onSave={onSave}
      onRemoveOwnAccess={() => undefined}
    />,
    { profile: testProfile() },
  );
  return { onSave, dialog: screen.getByRole('dialog', { name: 'Share “Protests”' }) };
}

describe('sharing dialog', () => {
  it('lists the owner first, then direct before inherited, editors before viewers, with "you"', () => {
    const { dialog } = renderDialog({
      entries: [
        entry(3, { name: 'Zed', fromGroup: true, role: 'full_access' }),
        entry(1, { email: 'ada@example.test', name: 'Ada Analyst' }),
        entry(2, { name: 'Cy', role: 'full_access' }),
      ],
    });
    const people = within(within(dialog).getByRole('list', { name: 'People with access' })).getAllByRole('listitem');
    expect(people.map((p) => p.textContent)).toEqual([
      'Oowner@example.testOwner',
      expect.stringContaining('user2@example.test'),
      expect.stringContaining('you'),
      expect.stringContaining('user3@example.test'),
    ]);
    // Access through the group is not edited here.
    expect(people[3]).toHaveTextContent('Has access through the group');
    expect(within(people[3] as HTMLElement).queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('adds people as viewers by default and warns about editors', async () => {
    const { dialog, onSave } = renderDialog({});
    await user.click(within(dialog).getByLabelText('Add people from your organization'));
    await user.click(await screen.findByRole('option', { name: 'Bob (bob@example.test)' }));
    expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveTextContent('can view');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).queryByText(/People with edit access/)).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('combobox', { name: 'Access for bob@example.test' }));
    await user.click(await screen.findByRole('option', { name: 'can edit' }));
    expect(
      within(dialog).getByText('People with edit access can change, share and delete “Protests”.'),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith({
      privacy: 'private',
      sharedUsers: [{ username: 'bob@example.test', role: 'full_access' }],
    });
  });

  it('warns when you lower your own access', async () => {
    const { dialog } = renderDialog({ entries: [entry(1, { email: 'ada@example.test', role: 'full_access' })] });
    await user.click(within(dialog).getByRole('combobox', { name: 'Access for you' }));
    await user.click(await screen.findByRole('option', { name: 'can view' }));
    expect(
      within(dialog).getByText('Removing or lowering your own access may permanently restrict you.'),
    ).toBeInTheDocument();
  });

  it('is read-only for someone who may not manage sharing', () => {
    const { dialog } = renderDialog({ canManageSharing: false, entries: [entry(2, {})] });
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Add people from your organization')).not.toBeInTheDocument();
    for (const radio of within(dialog).getAllByRole('radio')) expect(radio).toBeDisabled();
  });
});
