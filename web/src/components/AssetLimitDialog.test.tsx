import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Reply, fakeServer } from '../test/fakeServer';
import { testFilterList } from '../test/filterFixtures';
import { testProfile } from '../test/fixtures';
import { renderApp, renderWithApp } from '../test/renderApp';
import { SourceDialog } from './sources/SourceDialog';

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

  // Issue 29: adding entries past the organization's cap, and a source past the tenant's, said
  // the limit in a line of the form; now the same dialog.
  it('is shown when added entries are beyond the cap', async () => {
    fakeServer({
      'GET /api/v1/filter-lists/4': { data: testFilterList(4) },
      'POST /api/v1/filter-lists/4/keyword': limitReply,
    });
    renderApp('/monitor/filters/4', { profile: testProfile() });
    await user.type(await screen.findByLabelText('Add keywords'), 'coupon');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await expectLimitDialog();
  });

  it('is shown when a new source is beyond the cap', async () => {
    fakeServer({ 'POST /api/v1/sources': limitReply });
    const onSaved = vi.fn();
    renderWithApp(<SourceDialog open types={['rss']} onClose={() => undefined} onSaved={onSaved} />, {
      profile: testProfile(),
    });
    await user.type(screen.getByLabelText(/Name/), 'Harbour Gazette');
    await user.type(screen.getByLabelText(/Feed address/), 'https://gazette.example/feed');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await expectLimitDialog();
    expect(onSaved).not.toHaveBeenCalled();
  });
});
