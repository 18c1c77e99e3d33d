import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testProfile } from '../test/fixtures';
import { renderWithApp } from '../test/renderApp';
import { HELP_CENTRE_URL } from '../lib/support';
import { HelpDrawer } from './HelpDrawer';

function renderDrawer(email: string, supportEmail: string) {
  const profile = testProfile({ email });
  renderWithApp(<HelpDrawer open onClose={() => undefined} />, {
    profile: { ...profile, tenant: { ...profile.tenant, support_email: supportEmail } },
  });
  return screen.findByRole('dialog', { name: 'Help and support' });
}

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
});
