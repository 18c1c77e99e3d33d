import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CaseSummary } from '../../api/cases';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { AddToCaseButton } from './AddToCaseButton';

const user = userEvent.setup({ delay: null });

const aCase = (id: number, name: string, overrides: Partial<CaseSummary> = {}): CaseSummary => ({
  id,
  name,
  status: 'open',
  privacy: 'private',
  tags: [],
  assignees: [],
  owner: { id: 1, name: 'Ada', email: 'ada@example.test', username: 'ada' },
  itemCount: 0,
  canEdit: true,
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
  ...overrides,
});

describe('AddToCaseButton', () => {
  it('adds the post with a note to a case the user can edit', async () => {
    const requests = fakeServer({
      'GET /api/v1/cases': {
        data: [
          aCase(3, 'Harbour strike'),
          aCase(4, 'Read only', { canEdit: false }),
          aCase(5, 'Done', { status: 'closed' }),
        ],
      },
      'POST /api/v1/cases/3/items': new Reply(201, { data: { id: 10 } }),
    });
    renderWithApp(<AddToCaseButton target={{ postId: 'p1' }} />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Add to case' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to case' });
    await within(dialog).findByText('Harbour strike');
    await user.click(within(dialog).getByRole('combobox', { name: 'Case' }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Harbour strike', 'New case…']);
    await user.keyboard('{Escape}');
    await user.type(within(dialog).getByLabelText('Note'), 'Names the harbour.');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Added to the case “Harbour strike”.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ postId: 'p1', note: 'Names the harbour.' });
  });

  it('starts a new case when the user has none, and shows the server’s message on a refusal', async () => {
    const requests = fakeServer({
      'GET /api/v1/cases': { data: [] },
      'POST /api/v1/cases': new Reply(201, { data: { id: 7 } }),
      'POST /api/v1/cases/7/items': new Reply(422, {
        message: 'The post was not found.',
        errors: { postId: ['The post was not found.'] },
      }),
    });
    renderWithApp(<AddToCaseButton target={{ postId: 'gone' }} />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Add to case' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to case' });
    await user.type(await within(dialog).findByLabelText(/New case name/), 'Fresh');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('The post was not found.')).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/v1/cases' && r.method === 'POST')?.body).toEqual({
      name: 'Fresh',
      description: '',
    });
  });
});
