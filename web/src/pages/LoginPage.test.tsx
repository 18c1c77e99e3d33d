import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetToken } from '../api/transport';
import { loadPage } from '../lib/navigation';
import { testProfile } from '../test/fixtures';
import { renderApp } from '../test/renderApp';

vi.mock('../lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/navigation')>()),
  loadPage: vi.fn(),
}));

interface Call {
  method: string;
  path: string;
  body: unknown;
}

// Typing without pauses keeps these tests quick on busy machines.
const user = userEvent.setup({ delay: null });

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A server that wants a one-time code from ada and accepts 123456. */
function mfaServer(calls: Call[]) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method: init?.method ?? 'GET', path, body });
    if (path === '/api/v1/auth/login') {
      const { password, otp } = body as { password: string; otp?: string };
      if (password !== 'correct horse') return json(401, { message: 'These credentials do not match our records.' });
      if (otp === undefined) {
        return json(401, { message: 'Enter the 6-digit code from your authenticator app.', mfaRequired: true });
      }
      if (otp !== '123456' && otp !== 'abcd-efgh-ijkl-mnop')
        return json(401, { message: 'That code is not valid. Try again.', mfaRequired: true });
      return json(200, { data: { token: 'bearer-1', expiresAt: 4_000_000_000, user: testProfile() } });
    }
    return json(404, { message: 'Not found' });
  });
}

beforeEach(() => {
  forgetToken();
  vi.mocked(loadPage).mockReset();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sign-in page', () => {
  it('asks for both fields before calling the server', async () => {
    const calls: Call[] = [];
    vi.stubGlobal('fetch', mfaServer(calls));
    renderApp('/login');

    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(screen.getByText('Enter your e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('shows the server message for wrong credentials and stays on the page', async () => {
    vi.stubGlobal('fetch', mfaServer([]));
    const { router } = renderApp('/login');

    await user.type(screen.getByLabelText(/Email/), 'ada@example.test');
    await user.type(screen.getByLabelText(/Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('These credentials do not match our records.');
    expect(router.state.location.pathname).toBe('/login');
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('asks for the authentication code, then signs in and goes where the user was headed', async () => {
    const calls: Call[] = [];
    vi.stubGlobal('fetch', mfaServer(calls));
    const { router } = renderApp('/login?redirect=%2Fmonitor%2Fgroups');

    await user.type(screen.getByLabelText(/Email/), 'ada@example.test');
    await user.type(screen.getByLabelText(/Password/), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const code = await screen.findByLabelText(/Authentication code/);
    expect(screen.getByRole('status')).toHaveTextContent('Enter the 6-digit code from your authenticator app.');

    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not valid. Try again.');

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/groups'));
    expect(await screen.findByRole('heading', { name: 'Search groups' })).toBeInTheDocument();
    // The groups page then loads its own data; these are the sign-in calls.
    const signIns = calls.filter((call) => call.path === '/api/v1/auth/login');
    expect(signIns.map((call) => call.body)).toEqual([
      { email: 'ada@example.test', password: 'correct horse' },
      { email: 'ada@example.test', password: 'correct horse', otp: '000000' },
      { email: 'ada@example.test', password: 'correct horse', otp: '123456' },
    ]);
  });

  it('takes a recovery code instead of the app’s code', async () => {
    const calls: Call[] = [];
    vi.stubGlobal('fetch', mfaServer(calls));
    const { router } = renderApp('/login');

    await user.type(screen.getByLabelText(/Email/), 'ada@example.test');
    await user.type(screen.getByLabelText(/Password/), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByLabelText(/Authentication code/);
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    expect(screen.queryByLabelText(/Authentication code/)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText(/Recovery code/), 'abcd-efgh-ijkl-mnop');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/dashboard'));
    expect(calls.filter((call) => call.path === '/api/v1/auth/login').at(-1)?.body).toEqual({
      email: 'ada@example.test',
      password: 'correct horse',
      otp: 'abcd-efgh-ijkl-mnop',
    });
  });

  it('ignores a redirect to another site', async () => {
    vi.stubGlobal('fetch', mfaServer([]));
    const { router } = renderApp('/login?redirect=https%3A%2F%2Fevil.example%2F');

    await user.type(screen.getByLabelText(/Email/), 'ada@example.test');
    await user.type(screen.getByLabelText(/Password/), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await user.type(await screen.findByLabelText(/Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/monitor/dashboard'));
  });

  it('shows the throttling message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(429, { message: 'Too many sign-in attempts. Try again in 60 seconds.' })),
    );
    renderApp('/login');

    await user.type(screen.getByLabelText(/Email/), 'ada@example.test');
    await user.type(screen.getByLabelText(/Password/), 'anything');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Too many sign-in attempts. Try again in 60 seconds.');
  });
});

describe('boot without a session', () => {
  it('sends the user to sign in, keeping the wanted path', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(401, { message: 'Unauthenticated.' })),
    );
    const { router } = renderApp('/monitor/matches/list?searchText=ransomware');

    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(
      '/monitor/matches/list?searchText=ransomware',
    );
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('shows the loading-error page when the server cannot answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(503, { message: 'Sightline is starting; try again shortly.' })),
    );
    renderApp('/monitor/dashboard');

    expect(await screen.findByRole('heading', { name: 'Whoops' })).toBeInTheDocument();
    expect(screen.getByText('Sightline is starting; try again shortly.')).toBeInTheDocument();
    expect(screen.getByText('Error 503')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });
});
