import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { PasswordForm } from './PasswordForm';

const user = userEvent.setup({ delay: null });

describe('password change in Settings', () => {
  it('shows the server’s rule under its field, then confirms the change', async () => {
    let refuse = true;
    const requests = fakeServer({
      'PUT /api/v1/settings/profile/password': () =>
        refuse
          ? new Reply(422, {
              message: 'The password confirmation does not match.',
              errors: { password_confirmation: ['The password confirmation does not match.'] },
            })
          : { data: { changed: true } },
    });
    renderWithApp(<PasswordForm />, { profile: testProfile() });
    await user.type(await screen.findByLabelText('Current password'), 'old-password-1');
    await user.type(screen.getByLabelText('New password'), 'tidal-harbour-lantern');
    await user.type(screen.getByLabelText('Repeat the new password'), 'tidal-harbour-lanter');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The password confirmation does not match.')).toBeInTheDocument();

    refuse = false;
    await user.type(screen.getByLabelText('Repeat the new password'), 'n');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed. Your other sessions were signed out.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT').at(-1)?.body).toEqual({
      current_password: 'old-password-1',
      password: 'tidal-harbour-lantern',
      password_confirmation: 'tidal-harbour-lantern',
    });
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });
});
