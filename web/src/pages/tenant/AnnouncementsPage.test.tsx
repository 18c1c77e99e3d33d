import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

afterEach(() => vi.unstubAllGlobals());

const published = {
  id: 4,
  title: 'Maintenance',
  body: 'Sunday 02:00 UTC',
  author: 'Ada Analyst',
  created_at: '2026-03-01T10:00:00Z',
  read: true,
};

describe('announcements page', () => {
  it('publishes an announcement and shows the server’s refusal next to its field', async () => {
    let list: (typeof published)[] = [];
    const requests = fakeServer({
      'GET /api/v1/announcements': () => ({ data: { announcements: list, unread: 0 } }),
      'POST /api/v1/tenant/announcements': (r: { body: unknown }) => {
        const body = r.body as { title: string; body: string };
        if (body.title === 'Bad') return new Reply(422, { message: 'x', errors: { title: ['The title is wrong.'] } });
        list = [{ ...published, title: body.title, body: body.body }];
        return new Reply(201, { data: list[0] });
      },
    });
    renderApp('/tenant/announcements', { profile: testProfile({ is_tenant_admin: true }) });
    expect(await screen.findByText('Nothing published')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'Bad');
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('The title is wrong.')).toBeInTheDocument();

    await userEvent.clear(screen.getByRole('textbox', { name: 'Title' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'Maintenance');
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('article', { name: 'Maintenance' })).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').at(-1)?.body).toEqual({ title: 'Maintenance', body: 'Hello' });
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('');
  });

  it('deletes one after confirmation', async () => {
    const requests = fakeServer({
      'GET /api/v1/announcements': { data: { announcements: [published], unread: 0 } },
      'DELETE /api/v1/tenant/announcements/4': { data: { deleted: true } },
    });
    renderApp('/tenant/announcements', { profile: testProfile({ is_tenant_admin: true }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete “Maintenance”' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(requests.some((r) => r.method === 'DELETE')).toBe(true));
  });
});
