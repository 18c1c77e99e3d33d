import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });

describe('contact details in Settings', () => {
  it('shows the server’s message under its field, then saves', async () => {
    const requests = fakeServer({
      'PUT /api/v1/settings/profile/contact': ({ body }: { body: unknown }) => {
        const contact = body as { name: string; username: string };
        if (contact.username.includes(' ')) {
          const msg = 'Username may contain only letters, numbers, dots, dashes and underscores.';
          return new Reply(422, { message: msg, errors: { username: [msg] } });
        }
        return { data: testProfile(contact) };
      },
    });
    renderApp('/settings', { profile: testProfile() });
    const name = await screen.findByLabelText('Name');
    const save = screen.getByRole('button', { name: 'Save contact details' });
    expect(name).toHaveValue('Ada Analyst');
    expect(save).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Ada Lovelace');
    await user.type(screen.getByLabelText('Username'), ' l');
    await user.click(save);
    expect(
      await screen.findByText('Username may contain only letters, numbers, dots, dashes and underscores.'),
    ).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'ada.l');
    await user.click(save);
    expect(await screen.findByText('Contact details saved')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Profile' }).parentElement).toHaveTextContent('Ada Lovelace');
    expect(requests.filter((r) => r.method === 'PUT').at(-1)?.body).toEqual({
      name: 'Ada Lovelace',
      username: 'ada.l',
    });
  });
});
