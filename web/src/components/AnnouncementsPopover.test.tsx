import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../test/fakeServer';
import { testProfile } from '../test/fixtures';
import { renderApp } from '../test/renderApp';

const announcement = (id: number, read: boolean) => ({
  id,
  title: `Notice ${id}`,
  body: `Body of notice ${id}`,
  author: 'Olu Owner',
  created_at: '2026-03-01T10:00:00Z',
  read,
});

afterEach(() => vi.unstubAllGlobals());

describe('announcements in the top bar', () => {
  it('shows the unread count, lists the announcements and marks them read when opened', async () => {
    const requests = fakeServer({
      'GET /api/v1/announcements': {
        data: { announcements: [announcement(2, false), announcement(1, true)], unread: 1 },
      },
      'POST /api/v1/announcements/read': {
        data: { announcements: [announcement(2, true), announcement(1, true)], unread: 0 },
      },
    });
    renderApp('/history', { profile: testProfile() });
    const button = await screen.findByRole('button', { name: 'Announcements, 1 unread' });
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Announcements' });
    expect(within(dialog).getByText('Body of notice 2')).toBeInTheDocument();
    expect(within(dialog).getByText('Notice 1')).toBeInTheDocument();
    expect(within(dialog).getAllByText('New')).toHaveLength(1);
    // Behind the open popover, the badge is gone: they are read now.
    expect(await screen.findByRole('button', { name: 'Announcements', hidden: true })).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/announcements/read')).toHaveLength(1);
  });

  it('says when there are none', async () => {
    fakeServer({ 'GET /api/v1/announcements': { data: { announcements: [], unread: 0 } } });
    renderApp('/history', { profile: testProfile() });
    await userEvent.click(await screen.findByRole('button', { name: 'Announcements' }));
    expect(await screen.findByText(/There are no announcements right now/)).toBeInTheDocument();
  });
});
