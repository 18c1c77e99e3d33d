// The one way the app talks to the Sightline server: a fetch wrapper that adds the session,
// anti-forgery and bearer headers every call needs, and the session calls (sign-in, token
// renewal) it relies on. Each domain's calls live in their own module over \`request\`.
import { readCookie } from '../lib/cookies';
import { loadPage } from '../lib/navigation';
import type { Profile } from './settings';

export interface SessionToken {
  token: string;
  /** Unix seconds. */
  expiresAt: number;
}

export interface LoginRequest {
  email: string;
  password: string;
  otp?: string;
}

/** The error shape every failing reply uses. */
export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
  limitExceeded?: boolean;
  title?: string;
  description?: string;
  mfaRequired?: boolean;
  /** Keywords too broad to monitor; the message then holds a title and three lines of text. */
  blacklistedKeywords?: string[];
}

export const REQUEST_TIMEOUT_MS = 60_000;
export const GENERIC_ERROR_MESSAGE = 'There was an issue making your request. Please try again.';
const TIMEOUT_MESSAGE = 'The server took too long to answer. Please try again.';
/** A change that got no reply at all (monitor-area.md section 8). */
export const SAVE_FAILED_MESSAGE = 'Save failed. Check your network connection and try again.';

export class ApiError extends Error {
  /** The HTTP status, or 0 when no reply came (network failure, time-out, cancel). */
  readonly status: number;
  readonly body: ErrorBody | undefined;
  /** The caller gave up on the request; screens ignore these silently. */
  readonly canceled: boolean;

  constructor(message: string, status: number, body?: ErrorBody, canceled = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.canceled = canceled;
  }
}

// The bearer token lives in memory only; after a reload the session cookie buys a new one.
let heldToken: (SessionToken & { obtainedAt: number }) | null = null;

export function currentToken(): SessionToken | null {
  return heldToken && { token: heldToken.token, expiresAt: heldToken.expiresAt };
}

/** When the held token was obtained, in milliseconds since the epoch (0 when none is held). */
export function tokenObtainedAt(): number | null {
  return heldToken?.obtainedAt ?? null;
}

function holdToken(token: SessionToken): void {
  heldToken = { ...token, obtainedAt: Date.now() };
}

// A token this close to its end could expire on the way to the server.
const EXPIRY_MARGIN_MS = 30_000;

/** Whether the held token is still good; after a laptop sleeps it often is not. */
function holdsFreshToken(): boolean {
  return heldToken !== null && heldToken.expiresAt * 1000 - Date.now() > EXPIRY_MARGIN_MS;
}

/** Forgets the held token, so each test starts signed out. */
export function forgetToken(): void {
  heldToken = null;
}

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Sign-in and the boot-time token call answer 401 to people who are simply not signed in:
   * they report it to the caller. Every other call treats 401 and 419 as a lost session.
   */
  unauthenticated?: 'sign-out' | 'report';
  /**
   * Sign-in and the token call are about the session itself: they never renew the token first,
   * and send it only while it is fresh, so the session cookie can speak for an expired one.
   */
  sessionCall?: boolean;
  /** Replies come in the {"data": ...} envelope unless this is false. */
  envelope?: boolean;
  /** A body sent as is (a file's text) with its media type, instead of a JSON body. */
  raw?: { contentType: string; text: string };
}

export interface Reply<T> {
  data: T;
  /** Paging details of list replies. */
  meta: unknown;
  headers: Headers;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<Reply<T>> {
  if (!options.sessionCall && heldToken && !holdsFreshToken()) await renewToken();
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  const xsrf = readCookie('XSRF-TOKEN');
  if (xsrf !== undefined) headers['X-XSRF-TOKEN'] = xsrf;
  if (heldToken && (!options.sessionCall || holdsFreshToken())) headers.Authorization = `Bearer ${heldToken.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.raw) headers['Content-Type'] = options.raw.contentType;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const callerSignal = options.signal;
  const forwardAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  callerSignal?.addEventListener('abort', forwardAbort, { once: true });

  try {
    const response = await fetch(path, {
      method,
      headers,
      credentials: 'include',
      body: options.raw ? options.raw.text : options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
    });
    const payload = await readJson(response);
    if (response.ok) {
      if (options.envelope === false) return { data: payload as T, meta: undefined, headers: response.headers };
      const { data, meta } = (payload ?? {}) as { data: T; meta?: unknown };
      return { data, meta, headers: response.headers };
    }
    const body = asErrorBody(payload);
    if ((response.status === 401 || response.status === 419) && options.unauthenticated !== 'report') {
      loadPage('/logout');
    }
    throw new ApiError(body?.message || GENERIC_ERROR_MESSAGE, response.status, body);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (callerSignal?.aborted) throw new ApiError('canceled', 0, undefined, true);
    if (timedOut) throw new ApiError(TIMEOUT_MESSAGE, 0);
    // No reply at all: the network, not the server, failed; a change says it was not saved.
    throw new ApiError(method === 'GET' ? GENERIC_ERROR_MESSAGE : SAVE_FAILED_MESSAGE, 0);
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', forwardAbort);
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A proxy's HTML error page says nothing the user can act on.
    return undefined;
  }
}

function asErrorBody(payload: unknown): ErrorBody | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const message = (payload as { message?: unknown }).message;
  return typeof message === 'string' ? (payload as ErrorBody) : undefined;
}

/** Signs in; the reply also sets the session cookie. A 401 is reported, never a sign-out. */
export async function login(credentials: LoginRequest): Promise<{ token: SessionToken; user: Profile }> {
  return startSession('/api/v1/auth/login', credentials);
}

/** What someone invited fills in to join. */
export interface InvitationAcceptance {
  name: string;
  password: string;
  password_confirmation: string;
}

/** Accepts an invitation (the token of its link) and signs the new member in, as sign-in does. */
export async function acceptInvitation(
  invitationToken: string,
  acceptance: InvitationAcceptance,
): Promise<{ token: SessionToken; user: Profile }> {
  return startSession(`/api/v1/invitations/${encodeURIComponent(invitationToken)}/accept`, acceptance);
}

async function startSession(path: string, body: unknown): Promise<{ token: SessionToken; user: Profile }> {
  const { data } = await request<SessionToken & { user: Profile }>('POST', path, {
    body,
    unauthenticated: 'report',
    sessionCall: true,
  });
  const token = { token: data.token, expiresAt: data.expiresAt };
  holdToken(token);
  return { token, user: data.user };
}

let renewal: Promise<SessionToken> | null = null;

/**
 * Trades the session cookie for a fresh bearer token; calls made meanwhile share one renewal.
 * At boot a 401 only means "not signed in" and is reported; later it means the session ended.
 */
export function renewToken({ atBoot = false } = {}): Promise<SessionToken> {
  renewal ??= requestToken(atBoot).finally(() => {
    renewal = null;
  });
  return renewal;
}

async function requestToken(atBoot: boolean): Promise<SessionToken> {
  const { data, headers } = await request<SessionToken>('PUT', '/api/v1/token', {
    unauthenticated: atBoot ? 'report' : 'sign-out',
    sessionCall: true,
  });
  const fromHeader = headers.get('Authorization')?.replace(/^Bearer\s+/i, '');
  const token = { token: data.token || fromHeader || '', expiresAt: data.expiresAt };
  if (token.token === '') throw new ApiError(GENERIC_ERROR_MESSAGE, 200);
  holdToken(token);
  return token;
}
