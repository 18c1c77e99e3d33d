import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, Reply } from '../test/fakeServer';
import { testProfile } from '../test/fixtures';
import { renderApp } from '../test/renderApp';

const user = userEvent.setup({ delay: null });

afterEach(() => vi.unstubAllGlobals());

describe('the invitation page', () => {
  it('joins with a name and password, showing rule breaks under their fields, then signs in', async () => {
    let tries = 0;
    const requests = fakeServer({
      'GET /api/v1/invitations/abc': {
        data: { email: 'cy@example.test', role: 'admin', organization: 'Acme', expiresAt: 4_000_000_000 },
      },
      'POST /api/v1/invitations/abc/accept': () => {
        tries++;
        if (tries === 1) {
          return new Reply(422, {
            message: 'The password must be at least 12 characters.',
            errors: { password: ['The password must be at least 12 characters.'] },
          });
        }
        return { data: { token: 'fresh', expiresAt: 4_000_000_000, user: testProfile({ email: 'cy@example.test' }) } };
      },
    });
    const { router } = renderApp('/invite/abc');
    expect(await screen.findByText(/You were invited to/)).toHaveTextContent('You were invited to Acme as an admin.');
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveValue('cy@example.test');
    await user.type(screen.getByRole('textbox', { name: /Your name/ }), 'Cy Colleague');
    await user.type(screen.getByLabelText(/^Password/), 'short');
    await user.type(screen.getByLabelText(/^Repeat the password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Join Acme' }));
    expect(await screen.findByText('The password must be at least 12 characters.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Join Acme' }));
    await vi.waitFor(() => expect(router.state.location.pathname).not.toBe('/invite/abc'));
    expect(requests.filter((r) => r.method === 'POST')[0]?.body).toEqual({
      name: 'Cy Colleague',
      password: 'short',
      password_confirmation: 'short',
    });
  });

  it.each([
    ['used', 'This invitation has already been used. Sign in with the e-mail address it was sent to.'],
    [
      'for an account that cannot join',
      'This e-mail address already has a Sightline account, which cannot join through this invitation. Sign in with it, or ask the person who invited you to invite another address.',
    ],
  ])('says plainly when the link is %s, and offers sign-in instead of the form', async (_, message) => {
    fakeServer({ 'GET /api/v1/invitations/refused': new Reply(409, { message }) });
    renderApp('/invite/refused');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('form', { name: 'Join the organization' })).not.toBeInTheDocument();
  });
});
