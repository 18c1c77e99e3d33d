// Shared helpers for the browser tests: start the real sightline binary on a loopback port it binds
// with a fresh data directory, and drive Debian's Chromium through playwright-core.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const webDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/**
 * The one deadline of every wait in the browser tests, as the Go tests' (internal/wait) and
 * Vitest's: a test that works waits only as long as the app takes, and only a failing one
 * spends it, so a machine three times slower, or one shared with other builds, still passes.
 * Every Playwright action and wait of a launched browser has it by default; a test names no
 * shorter one.
 */
export const DEADLINE_MS = 120_000;

export const ADMIN_EMAIL = 'admin@example.test';
// Made up per run: the tests need a password, not a secret.
export const ADMIN_PASSWORD = `e2e-${process.pid}-${Date.now()}`;

// The line `sightline serve` logs once it serves, with the address it bound (cmd/sightline/serve.go).
const LISTENING = /msg="sightline is listening" url=(http:\/\/\S+)/;

/**
 * Starts `sightline serve` with a fresh data directory and the first administrator on a port the
 * system chooses (--addr 127.0.0.1:0: no port is picked here and bound later, which another
 * process could take in between), reads its address from the line it logs once listening, and
 * waits (up to DEADLINE_MS) until /healthz answers. Returns its base URL, its data directory, its
 * output, a stop function that always cleans up, and restart, which stops the server and starts
 * it again on the same data directory (at another address: url changes).
 */
export async function startServer({ timeoutMs = DEADLINE_MS, env = {} } = {}) {
  // Chromium starts meanwhile: each takes seconds, and neither needs the other to start.
  const prelaunched = prelaunch();
  const dataDir = await mkdtemp(join(tmpdir(), 'sightline-e2e-data-'));
  let node;
  try {
    node = await serve(dataDir, env, timeoutMs);
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    await prelaunched.discard();
    throw error;
  }
  const server = {
    url: node.url,
    dataDir,
    logs: () => node.logs(),
    restart: async () => {
      await node.stop();
      node = await serve(dataDir, env, timeoutMs);
      server.url = node.url;
    },
    stop: async () => {
      await node.stop();
      await rm(dataDir, { recursive: true, force: true });
      await prelaunched.discard();
    },
  };
  return server;
}

// Runs one `sightline serve` process on dataDir until it is healthy: its URL, output and stop.
async function serve(dataDir, env, timeoutMs) {
  const bin = sightlineBinary();
  let output = '';
  let url = null;
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--data-dir', dataDir, '--log-format', 'text'], {
    env: {
      ...process.env,
      SIGHTLINE_ADMIN_EMAIL: ADMIN_EMAIL,
      SIGHTLINE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SIGHTLINE_SIMULATOR: 'off',
      // Tests never reach the internet: no default public sources.
      SIGHTLINE_SOURCES: 'none',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The address is read from the whole output, not the kept tail, so a long log cannot hide it.
  let unread = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
    if (url === null) {
      unread += chunk;
      const found = LISTENING.exec(unread);
      if (found) url = found[1];
      else unread = unread.slice(unread.lastIndexOf('\n') + 1);
    }
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  // A binary that cannot start reports 'error' and may never report 'exit'.
  const exited = new Promise((done) => {
    child.once('exit', done);
    child.once('error', (error) => {
      keep(`\nspawn ${bin}: ${error.message}\n`);
      done();
    });
  });
  let running = true;
  void exited.then(() => {
    running = false;
  });

  const stop = async () => {
    if (!running) return;
    child.kill('SIGTERM');
    // An unreferenced timer: once the server has exited, a pending one would hold the test's
    // process open for the rest of its 10 s (it did, in every file).
    const stopped = await Promise.race([exited, sleep(10_000, null, { ref: false })]);
    if (stopped === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!running) throw new Error(`sightline exited before it was ready:\n${output}`);
    if (url !== null) {
      try {
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
        if (response.ok && (await response.json()).status === 'ok') break;
      } catch {
        // Listening, not answering yet.
      }
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`sightline was not healthy within ${timeoutMs} ms:\n${output}`);
    }
    await sleep(url === null ? 50 : 200);
  }
  return { url, stop, logs: () => output };
}

function sightlineBinary() {
  return resolve(webDir, process.env.SIGHTLINE_BIN || '../bin/sightline');
}

/** Runs a sightline command (such as `user create`) against a server's data directory. */
export async function runSightline(dataDir, args) {
  const { stdout } = await promisify(execFile)(sightlineBinary(), [...args, '--data-dir', dataDir], {
    timeout: DEADLINE_MS,
  });
  return stdout;
}

/**
 * Launches Debian's Chromium (or CHROMIUM_PATH) headless with a fresh profile directory, in the
 * light colour scheme or E2E_COLOR_SCHEME's (`dark` runs every test's screens in the dark theme,
 * which a user's theme follows until they choose one). Returns the browser context and a close
 * function that removes the profile and throws when a page reported a Content-Security-Policy
 * violation or an accessibility finding. With the default options it takes the browser
 * startServer launched while the server started, when no launchBrowser has yet.
 */
export async function launchBrowser({ viewport, colorScheme = DEFAULT_SCHEME } = {}) {
  if (viewport === undefined && colorScheme === DEFAULT_SCHEME && waiting !== null) {
    const browser = waiting;
    waiting = null;
    return browser;
  }
  return launch({ viewport, colorScheme });
}

// The colour scheme of a browser the test does not choose one for.
const DEFAULT_SCHEME = process.env.E2E_COLOR_SCHEME || 'light';

// The browser startServer launched that no launchBrowser has taken yet.
let waiting = null;

// Launches a browser with launchBrowser's defaults for the next launchBrowser() to take, and
// returns discard, which closes it if none has (a file without a browser, or whose browsers have
// other options).
function prelaunch() {
  const browser = launch({ colorScheme: DEFAULT_SCHEME });
  // A launch that fails fails the launchBrowser that takes it, and nothing if none does.
  browser.catch(() => {});
  waiting = browser;
  return {
    discard: async () => {
      if (waiting !== browser) return;
      waiting = null;
      await browser.then((b) => b.close()).catch(() => {});
    },
  };
}

async function launch({ viewport = { width: 1440, height: 900 }, colorScheme }) {
  const userDataDir = await mkdtemp(join(tmpdir(), 'sightline-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
    viewport,
    colorScheme,
    timeout: DEADLINE_MS,
  });
  context.setDefaultTimeout(DEADLINE_MS);
  // The app must run under its Content-Security-Policy: Chromium reports every violation on the
  // console, and closing the browser fails the test that saw one.
  const violations = [];
  // Every screen a test visits is checked for accessibility (see auditScreen): once it has
  // settled after a navigation, and again each time it shows a state not checked yet.
  const screens = { seen: new Set(), audits: [], closing: false, helpers: new WeakSet(), context };
  const watch = (page) => {
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(`${page.url()}: ${message.text()}`);
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && !screens.helpers.has(page))
        screens.audits.push(
          settle(page)
            .then(() => auditScreen(page, screens))
            .catch(() => []),
        );
    });
    void watchScreen(page, screens);
    // A screenshot taken while axe walks the page can catch it half painted: it waits for the
    // page's audit to end.
    const screenshot = page.screenshot.bind(page);
    page.screenshot = async (options) => {
      await (axeRuns.get(page) ?? Promise.resolve()).catch(() => {});
      return screenshot(options);
    };
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  const close = async () => {
    // The screens as the test left them, then every audit still running.
    for (const page of context.pages()) if (!screens.helpers.has(page)) screens.audits.push(auditScreen(page, screens));
    screens.closing = true;
    for (let done = 0; done < screens.audits.length;) {
      const batch = screens.audits.slice(done);
      done = screens.audits.length;
      for (const lines of await Promise.all(batch)) violations.push(...lines);
    }
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
    if (violations.length > 0) {
      throw new Error(`Violations:\n${[...new Set(violations)].join('\n')}`);
    }
  };
  return { context, close };
}

// Functions passed to page.evaluate and waitForFunction run in the browser.
/* global document, window, axe */
const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Waits until the screen has drawn and its skeletons are gone, or a few seconds at most. */
async function settle(page) {
  await page.waitForLoadState('load');
  await page
    .waitForFunction(() => document.querySelector('#root > *') && !document.querySelector('.MuiSkeleton-root'), null, {
      timeout: 5_000,
    })
    .catch(() => {});
}

/**
 * What an audit tells screens apart by: the path, the theme (light or dark, from the page's
 * background) and the kinds of element on it (tag, role and MUI or Leaflet component), so a
 * list first seen empty is checked again once it holds rows, a dialog once it opens, the map
 * once its tiles load. Null while the screen is still drawing.
 */
function screenKey(page) {
  return page.evaluate(() => {
    if (!document.querySelector('#root > *') || document.querySelector('.MuiSkeleton-root')) return null;
    const [r, g, b] = (window.getComputedStyle(document.body).backgroundColor.match(/[\d.]+/g) ?? [255, 255, 255]).map(
      Number,
    );
    const theme = 0.2126 * r + 0.7152 * g + 0.0722 * b < 128 ? 'dark' : 'light';
    const kinds = new Set();
    for (const el of document.body.querySelectorAll('*')) {
      const component = [...el.classList].find((c) => /^(Mui[A-Za-z]+-root|leaflet-[a-z-]+)$/.test(c)) ?? '';
      const role = el.getAttribute('role');
      kinds.add(`${el.tagName}${role ? `[${role}]` : ''}${component ? `.${component}` : ''}`);
    }
    return `${window.location.pathname} ${theme} ${[...kinds].sort().join(' ')}`;
  });
}

/**
 * Audits the screen a page shows unless a screen like it was audited already (screenKey). A
 * finding counts when the screen, opened again on its own at once, still shows it: the test goes
 * on while a screen is audited, and a menu it opens meanwhile can hide what axe reads. Returns
 * the confirmed findings, one line each.
 */
async function auditScreen(page, screens) {
  try {
    const url = page.url();
    if (url.startsWith('about:') || screens.closing) return [];
    const key = await screenKey(page);
    if (key === null || screens.seen.has(key)) return [];
    screens.seen.add(key);
    const found = await axeViolations(page);
    if (found.length === 0) return [];
    const confirmed = await reaudit(screens, url, key).catch(() => null);
    const path = new URL(url).pathname;
    return found
      .filter((v) => confirmed === null || confirmed.some((c) => c.rule === v.rule))
      .map((v) => `${path}: ${v.line}`);
  } catch {
    // The page closed or moved on meanwhile; the screen it moved to is audited on its own.
    return [];
  }
}

// Polls a page's screen every second and audits a state not seen yet once it has held still
// for a poll, until the page or the browser closes.
async function watchScreen(page, screens) {
  let last = null;
  while (!screens.closing && !page.isClosed()) {
    await sleep(1_000);
    if (screens.closing || page.isClosed() || screens.helpers.has(page)) return;
    const key = await screenKey(page).catch(() => null);
    if (key !== null && key === last && !screens.seen.has(key)) {
      const audit = auditScreen(page, screens);
      screens.audits.push(audit);
      await audit;
    }
    last = key;
  }
}

// Opens url in a fresh page of the context, not itself audited, and audits it once it shows
// the screen key (its data loaded, its map's tiles drawn) or after a few seconds; null when it
// lands elsewhere (the session ended).
async function reaudit(screens, url, key) {
  const page = await screens.context.newPage();
  screens.helpers.add(page);
  try {
    await page.goto(url);
    await settle(page);
    for (let tries = 0; tries < 10 && (await screenKey(page)) !== key; tries++) await sleep(500);
    const moved = () => new URL(page.url()).pathname !== new URL(url).pathname;
    if (moved()) return null;
    const found = await axeViolations(page);
    return moved() ? null : found;
  } finally {
    await page.close();
  }
}

const STILL = '*, *::before, *::after { transition: none !important; animation: none !important; }';

// One axe run at a time per page: axe refuses to start while it runs, and a test's own check
// can come while the audit of the navigation it just made is running.
const axeRuns = new WeakMap();

function axeViolations(page) {
  const run = (axeRuns.get(page) ?? Promise.resolve()).catch(() => {}).then(() => runAxe(page));
  axeRuns.set(page, run);
  return run;
}

async function runAxe(page) {
  // Colours mid-transition (a dialog fading in, a button just enabled) are not what anyone
  // reads: transitions end at once on an audited page, so axe measures the final colours.
  await page.addStyleTag({ content: STILL }).catch(() => {});
  // Evaluated through the DevTools protocol, so the app's Content-Security-Policy allows it.
  await page.evaluate(await axeSource);
  return page.evaluate(async () => {
    // Put back what axe scrolled, so the test goes on with the screen it had.
    const result = await axe.run(document, { resultTypes: ['violations'], restoreScroll: true });
    // Not axe's, but as serious for someone reading the screen: a page wider than the window.
    const sideways =
      document.documentElement.scrollWidth > window.innerWidth + 1
        ? [
            {
              rule: 'page-scrolls-sideways',
              line: `serious page-scrolls-sideways: ${document.documentElement.scrollWidth} px wide in a ${window.innerWidth} px window`,
            },
          ]
        : [];
    return sideways.concat(
      result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          rule: v.id,
          line: `${v.impact} ${v.id} (${v.help}): ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 5)
            .join(', ')}`,
        })),
    );
  });
}

/**
 * The serious and critical accessibility violations of the page as it is now, one line each.
 * Tests call it for states no navigation reaches (an open dialog, a drawer).
 */
export async function accessibilityViolations(page) {
  return (await axeViolations(page)).map((v) => v.line);
}

/** Signs in through the page's labelled fields and waits to leave the sign-in page. */
export async function signIn(page, { email = ADMIN_EMAIL, password = ADMIN_PASSWORD } = {}) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** Launches the browser and signs the administrator in to server: its browser and page. */
export async function signedInBrowser(server) {
  const browser = await launchBrowser();
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/login`);
  await signIn(page);
  return { browser, page };
}

/** Closes the browser, then stops the server even when closing failed (a CSP violation). */
export async function closeAll(browser, server) {
  try {
    await browser?.close();
  } finally {
    await server?.stop();
  }
}

/**
 * Signs in through the API (not the browser) and returns a caller of the JSON API with the
 * bearer token: `call(method, path, body)` resolves to the reply's `data`, and fails the test on
 * any status but 2xx.
 */
export async function apiSession(server, { email = ADMIN_EMAIL, password = ADMIN_PASSWORD } = {}) {
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`sign-in as ${email}: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()).data;
  const call = async (method, path, body) => {
    const reply = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await reply.text();
    if (!reply.ok) throw new Error(`${method} ${path}: ${reply.status} ${text}`);
    return text === '' ? undefined : JSON.parse(text).data;
  };
  return { token, call };
}

/** Listens on a free loopback port; resolves to the port. */
export async function listen(server) {
  await new Promise((done, fail) => server.listen(0, '127.0.0.1', done).once('error', fail));
  return server.address().port;
}

/**
 * The least of an SMTP server on loopback, enough for a client that sends one message at a time
 * without authentication or TLS (none is offered): it records each message's raw data.
 */
export async function startSmtp() {
  const messages = [];
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let data = null;
    socket.write('220 localhost ESMTP e2e\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk;
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(data + buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = null;
          socket.write('250 queued\r\n');
          continue;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd < 0) return;
        const verb = buffer.slice(0, lineEnd).slice(0, 4).toUpperCase();
        buffer = buffer.slice(lineEnd + 2);
        if (verb === 'EHLO') socket.write('250-localhost\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 end with a dot\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  const port = await listen(server);
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      return new Promise((done) => server.close(done));
    },
  };
}
