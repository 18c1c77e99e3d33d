import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../test/fakeServer';
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
    ).toEqual(['NameE-mailRole', 'Ada AnalystYouada@example.testMember', 'Olu Ownerolu@example.testOwner']);
  });

  it('offers the translation setting only when the server translates', async () => {
    const requests = fakeServer({
      'PATCH /api/v1/settings/profile/update/is-translation-enrichment-enabled': {
        data: testProfile({ translation: true, is_translation_enrichment_enabled: true }),
      },
    });
    const { unmount } = renderApp('/settings', { profile: testProfile({ translation: false }) });
    await screen.findByRole('heading', { name: 'Inbox' });
    expect(screen.queryByRole('switch', { name: /Translate posts/ })).not.toBeInTheDocument();
    unmount();

    renderApp('/settings', { profile: testProfile({ translation: true, is_translation_enrichment_enabled: false }) });
    const toggle = await screen.findByRole('switch', { name: "Translate posts into your browser's language" });
    await userEvent.click(toggle);
    expect(await screen.findByText('Inbox setting saved')).toBeInTheDocument();
    expect(toggle).toBeChecked();
    expect(requests.some((r) => r.method === 'PATCH')).toBe(true);
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

  // Issue 29: media sensitivity was only in the profile, with no way to change it.
  it('lets the user choose to see pictures unblurred', async () => {
    const requests = fakeServer({
      'GET /api/v1/settings/organizations/current': { data: { data: organization } },
      'PATCH /api/v1/settings/profile/update/media-sensitivity': (request: { body: unknown }) => ({
        data: testProfile(request.body as { media_sensitivity: 'show' }),
      }),
    });
    renderApp('/settings', { profile: testProfile({ media_sensitivity: 'blur' }) });

    const blur = await screen.findByRole('switch', { name: 'Blur pictures until I reveal them' });
    expect(blur).toBeChecked();
    await userEvent.click(blur);

    expect(await screen.findByText('Media setting saved')).toBeInTheDocument();
    expect(blur).not.toBeChecked();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ media_sensitivity: 'show' });
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

describe('webhook signing secret', () => {
  const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  function secretServer(hasWebhookSecret: boolean) {
    return fakeServer({
      'GET /api/v1/settings/organizations/current': { data: { data: { ...organization, hasWebhookSecret } } },
      'PUT /api/v1/settings/organizations/1/webhook': { data: { webhookSecret: SECRET } },
    });
  }

  it('is not offered to members', async () => {
    secretServer(false);
    renderApp('/settings', { profile: testProfile({ role: 'member' }) });
    await screen.findByRole('table', { name: 'Members of Default' });
    expect(screen.queryByRole('heading', { name: 'Webhook signing secret' })).not.toBeInTheDocument();
  });

  it('generates a secret for an owner and shows it once, with a copy button', async () => {
    const user = userEvent.setup();
    const requests = secretServer(false);
    renderApp('/settings', { profile: testProfile({ role: 'owner' }) });
    expect(await screen.findByRole('heading', { name: 'Webhook signing secret' })).toBeInTheDocument();
    expect(screen.getByText(/Standard Webhooks specification/)).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Generate secret' }));

    expect(await screen.findByRole('textbox', { name: 'Webhook signing secret' })).toHaveValue(SECRET);
    expect(screen.getByText(/shows it only this once/)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual([
      '/api/v1/settings/organizations/1/webhook',
    ]);
    await user.click(screen.getByRole('button', { name: 'Copy the secret' }));
    expect(await screen.findByText('Secret copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(screen.getByRole('button', { name: 'Rotate secret' })).toBeInTheDocument();
  });

  it('rotates an admin’s secret only after confirmation', async () => {
    const user = userEvent.setup();
    const requests = secretServer(true);
    renderApp('/settings', { profile: testProfile({ role: 'admin' }) });
    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    let dialog = await screen.findByRole('dialog', { name: 'Rotate the webhook signing secret?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);

    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    dialog = await screen.findByRole('dialog', { name: 'Rotate the webhook signing secret?' });
    await user.click(within(dialog).getByRole('button', { name: 'Rotate' }));
    expect(await screen.findByRole('textbox', { name: 'Webhook signing secret' })).toHaveValue(SECRET);
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });
});
