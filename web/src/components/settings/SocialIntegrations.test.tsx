import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SocialAccount, SocialProvider } from '../../api/social';
import { fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });

const mastodon: SocialProvider = {
  name: 'mastodon',
  display_name: 'Mastodon',
  connect_url: '/api/v1/settings/social/connect/mastodon',
};
const reddit: SocialProvider = { name: 'reddit', display_name: 'Reddit', connect_url: '/api/v1/settings/social/connect/reddit' };

function account(id: number, provider: SocialProvider, name: string): SocialAccount {
  return { id, account_id: `a${id}`, account_name: name, provider, connected_at: '2026-11-20T09:30:00Z' };
}

describe('social integrations in Settings', () => {
  it('says when the server has no networks set up', async () => {
    fakeServer({
      'GET /api/v1/settings/social/providers': { data: [] },
      'GET /api/v1/settings/social/integrations': { data: [] },
    });
    renderApp('/settings', { profile: testProfile() });
    expect(await screen.findByText(/No social networks are set up on this server yet/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Connect/ })).not.toBeInTheDocument();
  });

  it('connects through the network and disconnects after a confirmation', async () => {
    let accounts = [account(7, mastodon, 'analyst42'), account(8, reddit, 'old_handle')];
    const requests = fakeServer({
      'GET /api/v1/settings/social/providers': { data: [mastodon] },
      'GET /api/v1/settings/social/integrations': () => ({ data: accounts }),
      'DELETE /api/v1/settings/social/logout/7': () => {
        accounts = accounts.filter((a) => a.id !== 7);
        return { data: { disconnected: 1 } };
      },
    });
    renderApp('/settings', { profile: testProfile() });
    const list = await screen.findByRole('list', { name: 'Social networks' });
    // A full page load through the network's own sign-in.
    expect(within(list).getByRole('link', { name: 'Connect a Mastodon account' })).toHaveAttribute(
      'href',
      '/api/v1/settings/social/connect/mastodon',
    );
    // Reddit is no longer set up: its account can be disconnected, not connected again.
    expect(within(list).getByText(/old_handle/)).toBeInTheDocument();
    expect(within(list).queryByRole('link', { name: 'Connect a Reddit account' })).not.toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: 'Disconnect Mastodon account analyst42' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disconnect analyst42?' });
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Account disconnected')).toBeInTheDocument();
    await waitFor(() => expect(within(list).queryByText(/analyst42/)).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/v1/settings/social/logout/7']);
  });

  it('tells how the network sign-in ended', async () => {
    fakeServer({
      'GET /api/v1/settings/social/providers': { data: [mastodon] },
      'GET /api/v1/settings/social/integrations': { data: [] },
    });
    renderApp('/settings?social_error=You%20did%20not%20allow%20the%20connection%20at%20Mastodon.', {
      profile: testProfile(),
    });
    expect(await screen.findByText('You did not allow the connection at Mastodon.')).toBeInTheDocument();
  });
});
