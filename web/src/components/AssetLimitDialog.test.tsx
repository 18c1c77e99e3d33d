import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Reply, fakeServer } from '../test/fakeServer';
import { testProfile } from '../test/fixtures';
import { renderApp } from '../test/renderApp';

const user = userEvent.setup({ delay: null });

const limitReply = new Reply(422, {
  message: 'Asset Limit Reached',
  limitExceeded: true,
  title: 'Asset Limit Reached',
  description: 'Your organization has reached the number of assets its plan allows.',
});

async function expectLimitDialog() {
  const limit = await screen.findByRole('dialog', { name: 'Asset Limit Reached' });
  expect(limit).toHaveTextContent('Your organization has reached the number of assets its plan allows.');
  expect(within(limit).getByRole('link', { name: 'Contact support' })).toHaveAttribute(
    'href',
    'mailto:support@example.test',
  );
}

// Every creation path that an organization's caps can refuse shows the Asset Limit dialog.
describe('Asset Limit dialog', () => {
  it('is shown when a new group is beyond the cap', async () => {
    fakeServer({
      'GET /api/v1/monitor/monitor-search-groups': { data: [] },
      'POST /api/v1/monitor/monitor-search-groups': limitReply,
    });
    renderApp('/monitor/groups', { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'New group' }));
    const form = await screen.findByRole('dialog', { name: 'New group' });
    await user.type(within(form).getByLabelText(/Group name/), 'Floods');
    await user.click(within(form).getByRole('button', { name: 'Create group' }));
    await expectLimitDialog();
  });

  it('is shown when a new filter list is beyond the cap', async () => {
    fakeServer({ 'POST /api/v1/filter-lists/': limitReply });
    renderApp('/monitor/filters/new', { profile: testProfile() });
    await user.type(await screen.findByLabelText(/Name/), 'Spam');
    await user.type(screen.getByLabelText(/Keywords/), 'promo code');
    await user.click(screen.getByRole('button', { name: 'Create filter list' }));
    await expectLimitDialog();
  });
});
