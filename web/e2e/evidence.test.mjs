// Evidence end to end, in Chromium against the real binary: Capture on a Beacon result card
// fetches the post's page from a local site (allowlisted as the operator would an on-premises
// site), shows the capture's files and hashes, and the downloaded bundle passes
// `sightline evidence verify` offline, while a bundle with one changed byte fails it. The story
// page captures the story; "Capture a web page" on a case page fetches a pasted address from the
// local site into the case. Axe checks the Capture dialogs in the light and the dark theme.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  DEADLINE_MS,
  accessibilityViolations,
  apiSession,
  closeAll,
  listen,
  signedInBrowser,
  startServer,
} from './harness.mjs';

/* global document, getComputedStyle, window */

const shots = new URL('../test-results/', import.meta.url);
const bin = resolve(fileURLToPath(new URL('..', import.meta.url)), process.env.SIGHTLINE_BIN || '../bin/sightline');

/** Runs `sightline evidence verify FILE`: its output and whether it passed. */
async function verify(file) {
  try {
    const { stdout } = await promisify(execFile)(bin, ['evidence', 'verify', file], { timeout: DEADLINE_MS });
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
    const deadline = Date.now() + DEADLINE_MS;
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
    const deadline = Date.now() + DEADLINE_MS;
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
    await dialog.getByText('Captured', { exact: true }).waitFor();
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

  /** Axe in the light theme, then in the dark one (the profile's theme is "system"). */
  async function accessibleInBothThemes() {
    assert.deepEqual(await accessibilityViolations(page), []);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction((was) => getComputedStyle(document.body).backgroundColor !== was, light);
    assert.deepEqual(await accessibilityViolations(page), []);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction((was) => getComputedStyle(document.body).backgroundColor === was, light);
  }

  it('captures a story from its page', async () => {
    const found = await api.call('POST', '/beacon/v1/all', { query: 'harbour closed' });
    const storyId = found.documents[0].storyId;
    assert.ok(storyId, JSON.stringify(found.documents[0]));
    // The inbox's stories view: each story's card can be captured and added to a case.
    await page.goto(`${server.url}/monitor/matches/stories`);
    const card = page.getByRole('list', { name: 'Stories' }).getByRole('article').first();
    await card.getByRole('button', { name: 'Capture as evidence' }).waitFor();
    await card.getByRole('button', { name: 'Add to case' }).waitFor();
    await card.screenshot({ path: new URL('evidence-story-card.png', shots).pathname });

    await page.goto(`${server.url}/monitor/stories/${encodeURIComponent(storyId)}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The header's button captures the story; the post cards below keep their own.
    await page.getByRole('button', { name: 'Capture as evidence' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Captured', { exact: true }).waitFor();
    const files = dialog.getByRole('table', { name: 'Files' });
    for (const name of ['capture.json', 'page.warc', 'story.json']) await files.getByRole('link', { name }).waitFor();
    const stories = await api.call('GET', `/api/v1/evidence?kind=story&target=${encodeURIComponent(storyId)}`);
    assert.equal(stories.length, 1, JSON.stringify(stories));
    assert.equal(stories[0].state, 'done');
    await page.screenshot({ path: new URL('evidence-capture-story.png', shots).pathname });
    await accessibleInBothThemes();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.screenshot({
      path: new URL('evidence-story-header.png', shots).pathname,
      clip: { x: 0, y: 0, width: 1440, height: 300 },
    });
  });

  it('captures a pasted web page into a case', async () => {
    const { id: caseId } = await api.call('POST', '/api/v1/cases', { name: 'Harbour closure' });
    // From the case list: the page is captured first, then added to a case chosen in "Add to case".
    const bulletin = `http://127.0.0.1:${site.address().port}/bulletin`;
    await page.goto(`${server.url}/cases`);
    await page.getByRole('button', { name: 'Capture a web page' }).click();
    const fromList = page.getByRole('dialog', { name: 'Capture a web page' });
    await fromList.getByRole('textbox', { name: /Address/ }).fill(bulletin);
    await page.screenshot({ path: new URL('evidence-capture-url-list.png', shots).pathname });
    await fromList.getByRole('button', { name: 'Capture' }).click();
    await fromList.getByText('Captured', { exact: true }).waitFor();
    await fromList.getByRole('table', { name: 'Files' }).getByRole('link', { name: 'page.warc' }).waitFor();
    await page.screenshot({ path: new URL('evidence-capture-url-list-done.png', shots).pathname });
    await fromList.getByRole('button', { name: 'Add to case' }).click();
    const add = page.getByRole('dialog', { name: 'Add to case' });
    await add.getByRole('combobox', { name: 'Case' }).filter({ hasText: 'Harbour closure' }).waitFor();
    await add.getByLabel('Note').fill('The harbour master’s bulletin.');
    await add.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Added to the case “Harbour closure”.').waitFor();
    await fromList.getByRole('button', { name: 'Close' }).click();

    await page.goto(`${server.url}/cases/${caseId}`);
    await page.getByRole('heading', { name: 'Harbour closure', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Capture a web page' }).click();
    const dialog = page.getByRole('dialog', { name: 'Capture a web page' });
    const address = dialog.getByRole('textbox', { name: /Address/ });
    await address.fill('harbour notice');
    await dialog.getByRole('button', { name: 'Capture' }).click();
    await dialog.getByText('The address must be an absolute http or https URL.').waitFor();
    await page.screenshot({ path: new URL('evidence-capture-url-invalid.png', shots).pathname });
    await accessibleInBothThemes();

    const notice = `http://127.0.0.1:${site.address().port}/notice`;
    await address.fill(notice);
    assert.equal(
      await dialog.getByRole('checkbox', { name: 'Add the capture to the case “Harbour closure”' }).isChecked(),
      true,
    );
    await dialog.getByRole('textbox', { name: 'Note' }).fill('The port authority’s notice.');
    await page.screenshot({ path: new URL('evidence-capture-url-form.png', shots).pathname });
    await dialog.getByRole('button', { name: 'Capture' }).click();
    await page.getByText('The capture was added to the case “Harbour closure”.').waitFor();
    await dialog.getByText(`of ${notice}`).waitFor();
    await dialog.getByText('Captured', { exact: true }).waitFor();
    const files = dialog.getByRole('table', { name: 'Files' });
    for (const name of ['capture.json', 'page.warc']) await files.getByRole('link', { name }).waitFor();
    await dialog.getByText('Not timestamped', { exact: false }).waitFor();
    await page.screenshot({ path: new URL('evidence-capture-url.png', shots).pathname });
    await accessibleInBothThemes();

    const captures = await api.call('GET', `/api/v1/evidence?kind=url&target=${encodeURIComponent(notice)}`);
    assert.equal(captures.length, 1, JSON.stringify(captures));
    const warc = captures[0].files.find((f) => f.name === 'page.warc');
    assert.ok(warc, JSON.stringify(captures[0].files));

    await dialog.getByRole('button', { name: 'Close' }).click();
    const item = page.getByRole('article', { name: /^Item 2:/ });
    await item.getByText(`page.warc · SHA-256 ${warc.sha256}`, { exact: false }).waitFor();
    assert.equal(await item.getByLabel('Note').inputValue(), 'The port authority’s notice.');
    const fromCaseList = page.getByRole('article', { name: /^Item 1:/ });
    assert.equal(await fromCaseList.getByLabel('Note').inputValue(), 'The harbour master’s bulletin.');
    await page.screenshot({ path: new URL('evidence-case-item.png', shots).pathname, fullPage: true });
  });
});
