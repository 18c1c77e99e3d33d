import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPage } from '../lib/navigation';
import { fetchOrganization, fetchProfile, updateDisplayTheme } from './settings';
import { ApiError, currentToken, forgetToken, login, renewToken, REQUEST_TIMEOUT_MS } from './transport';

vi.mock('../lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/navigation')>()),
  loadPage: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

function sentHeaders(call = 0): Headers {
  return new Headers(fetchMock.mock.calls[call]?.[1]?.headers);
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  vi.mocked(loadPage).mockReset();
  forgetToken();
  document.cookie = 'XSRF-TOKEN=abc%3D%3D; path=/';
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('every call', () => {
  it('sends the anti-forgery value, the ajax marker, cookies and the held bearer token', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { data: { token: 't1', expiresAt: 4_000_000_000, user: { id: 1 } } }));
    await login({ email: 'a@example.test', password: 'pw' });

    fetchMock.mockResolvedValueOnce(reply(200, { data: { id: 1 } }));
    await fetchProfile();

    const [path, init] = fetchMock.mock.calls[1] ?? [];
    expect(path).toBe('/api/v1/settings/profile/current');
    expect(init?.credentials).toBe('include');
    expect(init?.method).toBe('GET');
    const headers = sentHeaders(1);
    expect(headers.get('X-XSRF-TOKEN')).toBe('abc==');
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(headers.get('Authorization')).toBe('Bearer t1');
  });

  it('sends no Authorization header before a token is held', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { data: { id: 1 } }));
    await fetchProfile();
    expect(sentHeaders().has('Authorization')).toBe(false);
  });

  it('sends the JSON body of a change', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { data: { display_theme: 'dark' } }));
    await updateDisplayTheme('dark');
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/api/v1/settings/profile/update/display-theme');
    expect(init?.method).toBe('PATCH');
    expect(init?.body).toBe('{"display_theme":"dark"}');
    expect(sentHeaders().get('Content-Type')).toBe('application/json');
  });

  it('unwraps the organization envelope', async () => {
    const organization = { id: 4, name: 'Default', crm_id: '', users: [] };
    fetchMock.mockResolvedValueOnce(reply(200, { data: { data: organization } }));
    await expect(fetchOrganization()).resolves.toEqual(organization);
  });
});

describe('lost session', () => {
  const cases = [
    { status: 401, call: () => fetchProfile() },
    { status: 419, call: () => updateDisplayTheme('light') },
    { status: 401, call: () => renewToken() },
  ];
  for (const c of cases) {
    it(`sends the browser to /logout on ${c.status}`, async () => {
      fetchMock.mockResolvedValueOnce(reply(c.status, { message: 'Unauthenticated.' }));
      await expect(c.call()).rejects.toMatchObject({ status: c.status });
      expect(loadPage).toHaveBeenCalledWith('/logout');
    });
  }

  it('is reported, not acted on, by sign-in and by the token call at boot', async () => {
    fetchMock.mockResolvedValueOnce(reply(401, { message: 'These credentials do not match our records.' }));
    await expect(login({ email: 'a@example.test', password: 'wrong' })).rejects.toMatchObject({
      status: 401,
      message: 'These credentials do not match our records.',
    });
    fetchMock.mockResolvedValueOnce(reply(401, { message: 'Unauthenticated.' }));
    await expect(renewToken({ atBoot: true })).rejects.toMatchObject({ status: 401 });
    expect(loadPage).not.toHaveBeenCalled();
  });
});

describe('errors', () => {
  it('carries the server message and fields', async () => {
    const body = { message: 'Too many attempts.', errors: { email: ['Slow down'] } };
    fetchMock.mockResolvedValueOnce(reply(429, body));
    const error = await fetchProfile().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, message: 'Too many attempts.', body, canceled: false });
  });

  it('says a change without any reply was not saved, and a read that got none to try again', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(updateDisplayTheme('dark')).rejects.toMatchObject({
      status: 0,
      message: 'Save failed. Check your network connection and try again.',
    });
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(fetchProfile()).rejects.toMatchObject({
      status: 0,
      message: 'There was an issue making your request. Please try again.',
    });
  });

  it('falls back to the generic message when the reply is not JSON', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(fetchProfile()).rejects.toMatchObject({
      status: 502,
      message: 'There was an issue making your request. Please try again.',
    });
  });

  it('marks a request the caller gave up on as canceled', async () => {
    fetchMock.mockImplementationOnce(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const caller = new AbortController();
    const pending = fetchProfile(caller.signal);
    caller.abort();
    await expect(pending).rejects.toMatchObject({ canceled: true, message: 'canceled', status: 0 });
  });

  it('gives up after 60 seconds', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementationOnce(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = fetchProfile().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ status: 0, canceled: false, message: expect.stringMatching(/too long/) });
  });
});

describe('renewToken', () => {
  it('holds the token from the reply body', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { data: { token: 'fresh', expiresAt: 1700 } }));
    await expect(renewToken({ atBoot: true })).resolves.toEqual({ token: 'fresh', expiresAt: 1700 });
    expect(currentToken()).toEqual({ token: 'fresh', expiresAt: 1700 });
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/api/v1/token');
    expect(init?.method).toBe('PUT');
  });

  it('falls back to the Authorization reply header', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { data: { expiresAt: 1700 } }, { Authorization: 'Bearer from-header' }));
    await expect(renewToken()).resolves.toEqual({ token: 'from-header', expiresAt: 1700 });
  });
});

describe('an expired token', () => {
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  async function holdExpiredToken() {
    fetchMock.mockResolvedValueOnce(reply(200, { data: { token: 'old', expiresAt: nowSeconds() - 60, user: {} } }));
    await login({ email: 'a@example.test', password: 'pw' });
    fetchMock.mockClear();
  }

  it('is renewed through the session cookie before the next call', async () => {
    await holdExpiredToken();
    fetchMock.mockResolvedValueOnce(reply(200, { data: { token: 'new', expiresAt: nowSeconds() + 900 } }));
    fetchMock.mockResolvedValueOnce(reply(200, { data: { id: 1 } }));

    await fetchProfile();

    expect(fetchMock.mock.calls.map(([path, init]) => `${init?.method} ${String(path)}`)).toEqual([
      'PUT /api/v1/token',
      'GET /api/v1/settings/profile/current',
    ]);
    // The expired token would make the server refuse; the cookie speaks for the session.
    expect(sentHeaders(0).has('Authorization')).toBe(false);
    expect(sentHeaders(0).get('X-XSRF-TOKEN')).toBe('abc==');
    expect(sentHeaders(1).get('Authorization')).toBe('Bearer new');
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('is renewed once for calls made together', async () => {
    await holdExpiredToken();
    fetchMock.mockImplementation(async (path) =>
      String(path) === '/api/v1/token'
        ? reply(200, { data: { token: 'new', expiresAt: nowSeconds() + 900 } })
        : reply(200, { data: { id: 1 } }),
    );

    await Promise.all([fetchProfile(), fetchProfile(), fetchOrganization()]);

    expect(fetchMock.mock.calls.filter(([path]) => String(path) === '/api/v1/token')).toHaveLength(1);
  });

  it('is still sent while fresh, to the token call too', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { data: { token: 'live', expiresAt: nowSeconds() + 900, user: {} } }));
    await login({ email: 'a@example.test', password: 'pw' });
    fetchMock.mockResolvedValueOnce(reply(200, { data: { token: 'next', expiresAt: nowSeconds() + 900 } }));

    await renewToken();

    expect(sentHeaders(1).get('Authorization')).toBe('Bearer live');
    // The server renews only for the session cookie with the anti-forgery echo, never for a
    // bearer token alone.
    expect(fetchMock.mock.calls[1]?.[1]?.credentials).toBe('include');
    expect(sentHeaders(1).get('X-XSRF-TOKEN')).toBe('abc==');
  });
});
