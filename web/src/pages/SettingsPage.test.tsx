import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testProfile } from '../test/fixtures';
import { renderApp } from '../test/renderApp';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const organization = {
  id: 1,
  name: 'Default',
  crm_id: '',
  users: [
    { id: 1, email: 'ada@example.test', username: 'ada', name: 'Ada Analyst', role: 'member' },
    { id: 2, email: 'olu@example.test', username: 'olu', name: 'Olu Owner', role: 'owner' },
  ],
};

function server(themeReply: (body: { display_theme: string }) => Response) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    if (path === '/api/v1/settings/organizations/current') return json(200, { data: { data: organization } });
    if (path === '/api/v1/settings/profile/update/display-theme' && init?.method === 'PATCH') {
      return themeReply(JSON.parse(String(init.body)) as { display_theme: string });
    }
    return json(404, { message: 'Not found' });
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('settings page', () => {
  it("lists the organization's members", async () => {
    vi.stubGlobal(
      'fetch',
      server(() => json(500, {})),
    );
    renderApp('/settings', { profile: testProfile() });
    const table = await screen.findByRole('table', { name: 'Members of Default' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['NameE-mailRole', 'Ada Analystada@example.testmember', 'Olu Ownerolu@example.testowner']);
  });

  it('saves the chosen theme to the profile', async () => {
    const fetchMock = server((body) =>
      json(200, { data: testProfile({ display_theme: body.display_theme as 'dark' }) }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderApp('/settings', { profile: testProfile({ display_theme: 'light' }) });

    const dark = await screen.findByRole('button', { name: 'Dark' });
    expect(dark).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(dark);

    expect(await screen.findByText('Theme saved')).toBeInTheDocument();
    expect(dark).toHaveAttribute('aria-pressed', 'true');
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(patch?.[1]?.body).toBe('{"display_theme":"dark"}');
  });

  it('says so when the theme cannot be saved', async () => {
    vi.stubGlobal(
      'fetch',
      server(() => json(422, { message: 'The selected display theme is invalid.' })),
    );
    renderApp('/settings', { profile: testProfile({ display_theme: 'light' }) });

    await userEvent.click(await screen.findByRole('button', { name: 'System' }));

    expect(await screen.findByText('The selected display theme is invalid.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Light' })).toHaveAttribute('aria-pressed', 'true');
  });
});
