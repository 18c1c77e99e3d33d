import { vi } from 'vitest';

/** A reply other than 200, for a route of fakeServer. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Route = unknown | ((request: Request) => unknown);

/**
 * Stubs fetch with a server that answers "METHOD /path" routes: a value is sent as the JSON body
 * (200), a Reply with its status, a function is called with the request. Other requests never
 * answer, as a server busy elsewhere; they are not what a test is about. Returns the requests made.
 */
export function fakeServer(routes: Record<string, Route>): Request[] {
  const requests: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const request: Request = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: init?.body ? parseBody(String(init.body)) : undefined,
      };
      requests.push(request);
      const route = routes[`${request.method} ${request.path}`];
      if (route === undefined) return new Promise<Response>(() => undefined);
      const answer = typeof route === 'function' ? (route as (r: Request) => unknown)(request) : route;
      const reply = answer instanceof Reply ? answer : new Reply(200, answer);
      return new Response(JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return requests;
}

/** JSON bodies are parsed; others (an uploaded CSV file) stay text. */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
