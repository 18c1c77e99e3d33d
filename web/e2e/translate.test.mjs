// Translation end to end, in Chromium against the real binary started with --translate-url and
// --translate-key pointing at a LibreTranslate-protocol server on loopback: a post card is
// translated, the Beacon help panel's helper adds a translated keyword, in the builder the
// keyword helper and Expand to languages write a search that is saved, and a match of that search
// is analysed from its inbox card.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  DEADLINE_MS,
  accessibilityViolations,
  apiSession,
  closeAll,
  listen,
  signedInBrowser,
  startServer,
} from './harness.mjs';

const shots = new URL('../test-results/', import.meta.url);
const KEY = `translate-key-${process.pid}`;
const GROUP = 'Translated e2e';
const SEARCH = 'Bridge in three languages';

/**
 * The least of a LibreTranslate server: POST /translate {q, source, target, format, api_key}
 * answers {translatedText} with each word prefixed by the target language ("bridge" in French
 * is "fr_bridge"), so every translation is predictable. A wrong key is refused as
 * LibreTranslate refuses it. It records what it was asked.
 */
async function startLibreTranslate() {
  const asked = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const reply = (status, value) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method !== 'POST' || req.url !== '/translate') return reply(404, { error: 'Not found' });
      const { q, source, target, format, api_key: key } = JSON.parse(body);
      asked.push({ q, source, target, format });
      if (key !== KEY) return reply(403, { error: 'Invalid API key' });
      reply(200, { translatedText: q.replace(/\S+/g, (word) => `${target}_${word}`) });
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, asked, stop: () => new Promise((done) => server.close(done)) };
}

describe('Translation', () => {
  let libre;
  let server;
  let browser;
  let page;
  let api;

  const shot = (name) => page.screenshot({ path: new URL(`translate-${name}.png`, shots).pathname });
  const assertAccessible = async () => assert.deepEqual(await accessibilityViolations(page), []);

  before(async () => {
    await mkdir(shots, { recursive: true });
    libre = await startLibreTranslate();
    server = await startServer({ env: { SIGHTLINE_TRANSLATE_URL: libre.url, SIGHTLINE_TRANSLATE_KEY: KEY } });
    api = await apiSession(server);
    await api.call('POST', '/api/v1/monitor/monitor-search-groups', { name: GROUP });
    await api.call('POST', '/api/v1/ingest/posts', [
      {
        provider: 'reddit',
        native_id: `translate-e2e-${process.pid}`,
        content_type: 'thread_post',
        author_name: 'River watcher',
        title_text: 'Bridge closed',
        content_text: 'The old bridge over the river is closed for repairs until Friday.',
        published_at: new Date().toISOString(),
        post_link: 'https://example.com/r/bridge',
      },
    ]);
    // The pipeline stores posts in the background: wait until the search finds it.
    const deadline = Date.now() + DEADLINE_MS;
    while ((await api.call('POST', '/beacon/v1/all', { query: 'bridge' })).totalCount !== 1) {
      if (Date.now() > deadline) throw new Error('the post was not stored');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    ({ browser, page } = await signedInBrowser(server));
  });

  after(async () => {
    try {
      await closeAll(browser, server);
    } finally {
      await libre?.stop();
    }
  });

  it('translates a post card into French', async () => {
    await page.goto(`${server.url}/beacon/results?q=bridge`);
    const card = page.getByRole('list', { name: 'Search results' }).getByRole('article').first();
    await card.getByRole('button', { name: 'Translate' }).click();
    await page.getByRole('menuitem', { name: 'French' }).click();
    const translation = card.getByRole('region', { name: 'Translation to French' });
    await translation.getByText('fr_The fr_old fr_bridge').waitFor();
    // The translated title is shown apart, above the translated text.
    await translation.getByText('fr_Bridge fr_closed', { exact: true }).waitFor();
    await shot('card');
    await card.screenshot({
      path: new URL('../../docs/screenshots/post-translated-title.png', import.meta.url).pathname,
    });
    await assertAccessible();
    assert.ok(libre.asked.some((a) => a.target === 'fr' && a.q === 'Bridge closed'));
    assert.ok(libre.asked.some((a) => a.target === 'fr' && a.q.startsWith('The old bridge over the river')));
  });

  it('adds a translated keyword from the Beacon search bar’s help panel', async () => {
    await page.goto(`${server.url}/beacon`);
    const box = page.getByRole('textbox', { name: 'Search posts' });
    await box.fill('bridge');
    const panel = page.getByRole('region', { name: 'Search help' });
    await panel.getByRole('switch', { name: 'Translate keywords' }).click();
    const helper = panel.getByRole('group', { name: 'Translate keywords' });
    await helper.getByRole('combobox', { name: 'Into' }).fill('Spanish');
    await page.getByRole('option', { name: 'Spanish' }).click();
    await helper.getByRole('button', { name: 'Translate' }).click();
    await helper.getByRole('button', { name: 'Remove es_bridge' }).waitFor();
    await shot('beacon-helper');
    await assertAccessible();
    await helper.getByRole('button', { name: 'Add to search' }).click();
    assert.equal(await box.inputValue(), 'bridge OR es_bridge');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/q=bridge\+OR\+es_bridge/);
    await page.getByText('1 result in Results').waitFor();
  });

  it('translates the builder’s keywords, expands them to another language, and saves the search', async () => {
    await page.goto(`${server.url}/monitor/dashboard`);
    await page.getByRole('button', { name: 'New saved search' }).click();
    const builder = page.getByRole('dialog', { name: 'New saved search' });
    await builder.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: GROUP }).click();
    const keywords = builder.getByRole('textbox', { name: 'Keywords', exact: true });
    await keywords.fill('bridge');

    // The keyword helper: French, added joined with OR.
    await builder.getByRole('button', { name: 'Translate keywords' }).click();
    const helper = builder.getByRole('group', { name: 'Translate keywords' });
    assert.equal(await helper.getByLabel('Keywords to translate').inputValue(), 'bridge');
    await helper.getByRole('combobox', { name: 'Into' }).fill('French');
    await page.getByRole('option', { name: 'French' }).click();
    await helper.getByRole('button', { name: 'Translate' }).click();
    await helper.getByRole('button', { name: 'Remove fr_bridge' }).waitFor();
    await shot('builder-helper');
    await assertAccessible();
    await helper.getByRole('button', { name: 'Add to search' }).click();
    assert.equal(await keywords.inputValue(), 'bridge OR fr_bridge');

    // Expand to languages: German, looked over (one removed), then added per keyword.
    await builder.getByRole('button', { name: 'Expand to languages' }).click();
    const expand = page.getByRole('dialog', { name: 'Expand to languages' });
    await expand.getByText('bridge, fr_bridge').waitFor();
    await expand.getByRole('combobox', { name: 'Languages' }).fill('German');
    await page.getByRole('option', { name: 'German' }).click();
    await page.keyboard.press('Escape');
    await expand.getByRole('button', { name: 'Translate' }).click();
    await expand.getByRole('button', { name: 'Remove de_bridge (German)' }).waitFor();
    await expand.getByRole('button', { name: 'Remove de_fr_bridge (German)' }).click();
    await expand.getByText('None kept: it stays as it is').waitFor();
    const want = '(bridge OR de_bridge) OR fr_bridge';
    await expand.getByText(want).waitFor();
    await shot('expand');
    await assertAccessible();
    await expand.getByRole('button', { name: 'Add to search' }).click();
    await expand.waitFor({ state: 'detached' });
    assert.equal(await keywords.inputValue(), want);

    await builder.getByLabel('Search name').fill(SEARCH);
    await builder.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Your saved search is running').waitFor();
    const summary = (await api.call('GET', '/api/v1/monitor/searches')).find((s) => s.value === SEARCH);
    const search = await api.call('GET', `/api/v1/monitor/searches/${summary.id}`);
    assert.equal(search.search.query, want);
  });

  it('analyses a match in the inbox as Beacon analyses a result', async () => {
    await api.call('POST', '/api/v1/ingest/posts', [
      {
        provider: 'reddit',
        native_id: `translate-e2e-${process.pid}-match`,
        content_type: 'thread_post',
        author_name: 'Ferry captain',
        content_text: 'The harbour bridge stays closed tonight because divers found cracks in two of its pillars.',
        published_at: new Date().toISOString(),
      },
    ]);
    await page.goto(`${server.url}/monitor/matches/list`);
    const match = page.getByRole('article', { name: 'Unread match by Ferry captain' });
    await match.waitFor();
    await match.getByRole('button', { name: 'Analyze' }).click();
    const dialog = page.getByRole('dialog', { name: 'Analysis of the post by Ferry captain' });
    await dialog.getByText('divers found cracks', { exact: false }).waitFor();
    await shot('inbox-analysis');
    await assertAccessible();
    await dialog.getByRole('button', { name: 'Close' }).click();
  });
});
