import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Reply, fakeServer } from '../test/fakeServer';
import { testProfile } from '../test/fixtures';
import { renderWithApp } from '../test/renderApp';
import { HELP_CENTRE_URL } from '../lib/support';
import { HelpDrawer } from './HelpDrawer';

function renderDrawer(email: string, supportEmail: string, emailDelivery = true) {
  const profile = testProfile({ email });
  renderWithApp(<HelpDrawer open onClose={() => undefined} />, {
    profile: { ...profile, emailDelivery, tenant: { ...profile.tenant, support_email: supportEmail } },
  });
  return screen.findByRole('dialog', { name: 'Help and support' });
}

afterEach(() => vi.unstubAllGlobals());

describe('help drawer', () => {
  it('offers the tenant’s support address', async () => {
    const drawer = await renderDrawer('ana@acme.test', 'support@example.test');
    expect(drawer).toHaveTextContent('Write to support@example.test. We reply within 2 to 3 business days.');
    expect(screen.getByRole('link', { name: 'support@example.test' })).toHaveAttribute(
      'href',
      'mailto:support@example.test',
    );
  });

  it.each([
    { case: 'the user’s own address', supportEmail: 'Admin@Acme.test' },
    { case: 'no address', supportEmail: '' },
  ])(
    'offers no address to write to when the tenant has $case, and leads to the help centre',
    async ({ supportEmail }) => {
      const drawer = await renderDrawer('admin@acme.test', supportEmail);
      expect(drawer).not.toHaveTextContent('Write to');
      expect(drawer).toHaveTextContent(
        'This server has no support address other than your own; its operator sets one with --support-email.',
      );
      expect(screen.queryByRole('link', { name: /acme\.test/i })).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'help centre' })).toHaveAttribute('href', HELP_CENTRE_URL);
    },
  );

  it('sends a message to support and says where it went', async () => {
    const requests = fakeServer({ 'POST /api/v1/support': { data: { sent: true } } });
    const user = userEvent.setup();
    await renderDrawer('ana@acme.test', 'support@example.test');
    const send = screen.getByRole('button', { name: 'Send to support' });
    expect(send).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Your message' }), 'The map is blank.');
    await user.click(send);
    expect(await screen.findByText(/Your message was sent to support@example.test\./)).toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/v1/support')).toEqual([
      expect.objectContaining({ method: 'POST', body: { message: 'The map is blank.' } }),
    ]);
    expect(screen.getByRole('textbox', { name: 'Your message' })).toHaveValue('');
  });

  it('shows the server’s refusal', async () => {
    fakeServer({
      'POST /api/v1/support': new Reply(429, {
        message: 'You’ve exceeded the e-mail rate limit. Try again in a few minutes.',
      }),
    });
    const user = userEvent.setup();
    await renderDrawer('ana@acme.test', 'support@example.test');
    await user.type(screen.getByRole('textbox', { name: 'Your message' }), 'Again');
    await user.click(screen.getByRole('button', { name: 'Send to support' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('exceeded the e-mail rate limit');
  });

  it('says up front that it cannot send when the server has no e-mail', async () => {
    const drawer = await renderDrawer('ana@acme.test', 'support@example.test', false);
    expect(drawer).toHaveTextContent('This server does not send e-mail, so it cannot pass on a message from here');
    expect(screen.queryByRole('button', { name: 'Send to support' })).not.toBeInTheDocument();
  });

  it('offers no form without a support address', async () => {
    await renderDrawer('admin@acme.test', '');
    expect(screen.queryByRole('textbox', { name: 'Your message' })).not.toBeInTheDocument();
  });
});
