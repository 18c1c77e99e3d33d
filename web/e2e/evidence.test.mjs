// Evidence end to end, in Chromium against the real binary: Capture on a Beacon result card
// fetches the post's page from a local site (allowlisted as the operator would an on-premises
// site), shows the capture's files and hashes, and the downloaded bundle passes
// `sightline evidence verify` offline, while a bundle with one changed byte fails it. Axe checks
// the Capture dialog in the light and the dark theme.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { accessibilityViolations, apiSession, closeAll, listen, signedInBrowser, startServer } from './harness.mjs';

/* global document, getComputedStyle, window */

const shots = new URL('../test-results/', import.meta.url);
const bin = resolve(fileURLToPath(new URL('..', import.meta.url)), process.env.SIGHTLINE_BIN || '../bin/sightline');

/** Runs `sightline evidence verify FILE`: its output and whether it passed. */
async function verify(file) {
  try {
    const { stdout } = await promisify(execFile)(bin, ['evidence', 'verify', file], { timeout: 30_000 });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String(error.stdout) };
  }
}

describe('Evidence', () => {
  let site;
  let server;
  let browser;
  let page;
  let api;
  let dir;

  before(async () => {
    await mkdir(shots, { recursive: true });
    dir = await mkdtemp(join(tmpdir(), 'sightline-e2e-evidence-'));
    site = createServer((req, res) => {
      if (req.url === '/harbour.png') {
        res.writeHead(200, { 'Content-Type': 'image/png' });
        res.end(
          Buffer.from(
            '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f000500' +
              '01ff89993d1d0000000049454e44ae426082',
            'hex',
          ),
        );
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Harbour</title><h1>The harbour is closed</h1><img src="/harbour.png" alt="">');
    });
    const port = await listen(site);
    server = await startServer({ env: { SIGHTLINE_ALLOW_PRIVATE_NETWORKS: '127.0.0.1/32' } });
    api = await apiSession(server);
    await api.call('POST', '/api/v1/ingest/posts', [
      {
        provider: 'reddit',
        native_id: `evidence-e2e-${process.pid}`,
        content_type: 'thread_post',
        author_name: 'Harbour watcher',
        content_text: 'The harbour is closed to ships this morning.',
        published_at: new Date().toISOString(),
        post_link: `http://127.0.0.1:${port}/post/1`,
        photos: [{ large: `http://127.0.0.1:${port}/harbour.png` }],
      },
    ]);
    const deadline = Date.now() + 20_000;
    while ((await api.call('POST', '/beacon/v1/all', { query: 'harbour closed' })).totalCount !== 1) {
      if (Date.now() > deadline) throw new Error('the post was not stored');
      await new Promise((done) => setTimeout(done, 200));
    }
    ({ browser, page } = await signedInBrowser(server));
  });

  after(async () => {
    try {
      await closeAll(browser, server);
    } finally {
      // Even when closing failed: an open site keeps the test process running.
      site?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  });

  it("captures a saved search's new matches automatically once its page turns it on", async () => {
    const groups = await api.call('GET', '/api/v1/monitor/monitor-search-groups');
    const home = groups.find((g) => g.isSavedSearch);
    const { id } = await api.call('POST', '/api/v1/monitor/searches', {
      group_id: home.id,
      name: 'Harbour closures',
      keywords: 'harbour',
      providers: ['reddit'],
    });
    await page.goto(`${server.url}/monitor/${id}`);
    await page.getByRole('combobox', { name: 'Capture as evidence' }).click();
    await page.getByRole('option', { name: 'Every match' }).click();
    await page.getByRole('combobox', { name: 'Capture as evidence' }).filter({ hasText: 'Every match' }).waitFor();
    assert.equal((await api.call('GET', `/api/v1/monitor/searches/${id}/capture`)).mode, 'all');
    await page.screenshot({ path: new URL('evidence-auto.png', shots).pathname });

    await api.call('POST', '/api/v1/ingest/posts', [
      {
        provider: 'reddit',
        native_id: `evidence-e2e-auto-${process.pid}`,
        content_type: 'thread_post',
        author_name: 'Harbour watcher',
        content_text: 'The harbour reopens at noon.',
        published_at: new Date().toISOString(),
        post_link: `http://127.0.0.1:${site.address().port}/post/2`,
      },
    ]);
    // Every node scans for such matches every 10 s; the capture then runs in the background.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const list = await api.call('GET', '/api/v1/evidence?kind=match');
      const auto = list.find((e) => e.automatic);
      if (auto?.state === 'done') {
        assert.match(auto.capturedBy, /Harbour closures/);
        assert.ok(auto.files.some((f) => f.name === 'page.warc'));
        break;
      }
      if (Date.now() > deadline) throw new Error(`no automatic capture: ${JSON.stringify(list)}`);
      await new Promise((done) => setTimeout(done, 500));
    }
  });

  it('captures a post from its card, and its bundle verifies offline', async () => {
    await page.goto(`${server.url}/beacon/results?q=harbour+closed`);
    const card = page.getByRole('list', { name: 'Search results' }).getByRole('article').first();
    await card.getByRole('button', { name: 'Capture as evidence' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Captured', { exact: true }).waitFor({ timeout: 60_000 });
    const files = dialog.getByRole('table', { name: 'Files' });
    for (const name of ['capture.json', 'media/01.png', 'page.warc', 'post.json']) {
      await files.getByRole('link', { name }).waitFor();
    }
    await dialog.getByText('Not timestamped', { exact: false }).waitFor();
    await page.screenshot({ path: new URL('evidence-dialog.png', shots).pathname });
    // The dialog in both themes: the profile's theme is "system", so the page's colour scheme decides.
    assert.deepEqual(await accessibilityViolations(page), []);
    // The other theme than the run's (E2E_COLOR_SCHEME), then back.
    const scheme = (await page.evaluate(() => window.matchMedia('(prefers-color-scheme: dark)').matches))
      ? 'dark'
      : 'light';
    const other = scheme === 'dark' ? 'light' : 'dark';
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const first = await background();
    await page.emulateMedia({ colorScheme: other });
    await page.waitForFunction((was) => getComputedStyle(document.body).backgroundColor !== was, first);
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.emulateMedia({ colorScheme: scheme });

    const href = await dialog.getByRole('link', { name: 'Download bundle' }).getAttribute('href');
    const reply = await fetch(`${server.url}${href}`, { headers: { Authorization: `Bearer ${api.token}` } });
    assert.equal(reply.status, 200);
    const bundle = Buffer.from(await reply.arrayBuffer());
    const file = join(dir, 'bundle.zip');
    await writeFile(file, bundle);
    const good = await verify(file);
    assert.ok(good.ok, good.output);
    assert.match(good.output, /WARC: \d+ records/);

    // One changed byte in the file, as a copy damaged or altered on its way would have.
    const changed = Buffer.from(bundle);
    changed[Math.floor(changed.length / 3)] ^= 0x01;
    await writeFile(file, changed);
    const bad = await verify(file);
    assert.equal(bad.ok, false);
  });
});
