// Street level from a PMTiles file, in Chromium against the real binary: the server is started
// with --map-pmtiles and a file the test writes (a made-up town drawn as PNG tiles at zooms 14
// to 16 by internal/basemap/basemaptest, as no map data can be downloaded here), and Locate,
// searching an area of a few streets, draws the town's tiles under its markers, read from the
// file by range requests, in the light and the dark theme.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEADLINE_MS, apiSession, launchBrowser, signIn, startServer } from './harness.mjs';

/* global document */

const shots = new URL('../test-results/', import.meta.url);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const ATTRIBUTION = 'Made-up town drawn by the browser tests';

describe('Street-level map from a PMTiles file', () => {
  let dir;
  let town;
  let server;
  let bounds;

  before(async () => {
    await mkdir(shots, { recursive: true });
    dir = await mkdtemp(join(tmpdir(), 'sightline-e2e-town-'));
    const file = join(dir, 'town.pmtiles');
    const { stdout } = await promisify(execFile)('go', ['run', './internal/basemap/basemaptest/streetmap', file], {
      cwd: repo,
      timeout: DEADLINE_MS,
    });
    town = JSON.parse(stdout);
    server = await startServer({
      env: { SIGHTLINE_MAP_PMTILES: file, SIGHTLINE_MAP_TILES_ATTRIBUTION: ATTRIBUTION },
    });
    const api = await apiSession(server);
    const now = Date.now();
    const texts = [
      'Crane down across Market Street at Quay Avenue, both lanes closed',
      'Smoke over the Canal Street bridge, Station Avenue backed up',
      'Water main burst on Tanner Street, Dyer Street corner flooded',
    ];
    await api.call(
      'POST',
      '/api/v1/ingest/posts',
      town.crossings.map((c, i) => ({
        provider: 'twitter',
        native_id: `streetmap-e2e-${process.pid}-${i}`,
        content_type: 'social_media_post',
        author_name: 'Street watcher',
        content_text: texts[i],
        location: { lat: c.lat, lon: c.lon },
        published_at: new Date(now - (i + 1) * 60_000).toISOString(),
      })),
    );
    // A few streets around the three crossings: Locate fits it at street level (zoom 16).
    const lats = town.crossings.map((c) => c.lat);
    const lons = town.crossings.map((c) => c.lon);
    const [w, e, s, n] = [
      Math.min(...lons) - 0.001,
      Math.max(...lons) + 0.001,
      Math.min(...lats) - 0.0008,
      Math.max(...lats) + 0.0008,
    ];
    bounds = `POLYGON((${w} ${s},${e} ${s},${e} ${n},${w} ${n},${w} ${s}))`;
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const found = await api.call('POST', '/api/v1/locate/search', { type: 'location', bounds });
      if (found.totalCount === 3) break;
      if (Date.now() > deadline) throw new Error(`only ${found.totalCount} posts were found`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  after(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  for (const colorScheme of ['light', 'dark']) {
    it(`draws the town's streets under Locate's markers (${colorScheme})`, async () => {
      const browser = await launchBrowser({ colorScheme });
      try {
        const page = await browser.context.newPage();
        // Every read of the file, as the browser's PMTiles reader makes them: byte ranges.
        const reads = [];
        page.on('response', (response) => {
          if (new URL(response.url()).pathname === '/api/v1/map/base.pmtiles')
            reads.push({ status: response.status(), range: response.request().headers().range });
        });
        await page.goto(`${server.url}/login`);
        await signIn(page);
        await page.goto(`${server.url}/locate?type=location&bounds=${encodeURIComponent(bounds)}`);
        await page.getByText('3 results, most recent first').waitFor();
        await page.waitForFunction(() => document.querySelectorAll('.locate-marker').length === 3);
        const map = page.getByRole('region', { name: /^Map of results/ });
        // The town's tiles: pictures of 256 pixels read from the file.
        await page.waitForFunction(() => {
          const tiles = [...document.querySelectorAll('.leaflet-tile-container img.leaflet-tile-loaded')];
          return tiles.filter((t) => t.src.startsWith('blob:') && t.naturalWidth === 256).length >= 4;
        });
        // Street level: the map's zoom, from how far apart two markers are drawn.
        const [a, b] = town.crossings;
        const marker = async (i) => {
          const box = await page.locator('.locate-marker').nth(i).boundingBox();
          return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        };
        const drawn = await Promise.all([0, 1, 2].map(marker));
        const apart = Math.max(...drawn.flatMap((p) => drawn.map((q) => Math.abs(p.x - q.x))));
        const lons = town.crossings.map((c) => c.lon);
        const zoom = Math.log2(apart / (((Math.max(...lons) - Math.min(...lons)) / 360) * 256));
        assert.ok(zoom > 15.5, `the map is at zoom ${zoom.toFixed(1)}, want street level (16); ${a.name}, ${b.name}`);
        assert.ok(reads.length > 0, 'the browser read nothing of the file');
        assert.deepEqual(
          reads.filter((r) => r.status !== 206 || !/^bytes=\d+-\d+$/.test(r.range ?? '')),
          [],
          'every read of the file is a range answered with 206',
        );
        assert.match(await map.textContent(), new RegExp(ATTRIBUTION));
        // Over tiles, no note says the map has outlines only.
        assert.equal(await page.getByText(/country outlines only/).count(), 0);
        await page.screenshot({ path: new URL(`locate-street-level-${colorScheme}.png`, shots).pathname });
      } finally {
        await browser.close();
      }
    });
  }
});
