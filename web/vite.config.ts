import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Vitest runs most test files in a worker that keeps the modules it has loaded (MUI, React, the
// app) and its one document (happy-dom) from file to file (`isolate: false`): loading them again
// for each file was most of the suite's CPU. What a test leaves in the document, the storages, the cookies,
// the globals it stubbed and the timers is reset after each test (src/test/sharedWorker.ts and
// `unstubGlobals`). A file that replaces a module (`vi.mock`, `vi.doMock`) or loads modules
// afresh after stubbing what they read when they load (`vi.resetModules`) cannot share them:
// such files are found by their text and run each in a worker of their own, as every file did.
const TEST_FILE = /\.test\.tsx?$/;
const OWN_MODULES = /\bvi\.(mock|doMock|resetModules)\(/;
const src = fileURLToPath(new URL('src', import.meta.url));
const isolatedFiles = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((file) => TEST_FILE.test(file) && OWN_MODULES.test(readFileSync(`${src}/${file}`, 'utf8')))
  .map((file) => `src/${file}`);

// The Go server serves the API; the dev server forwards those paths to it.
const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    // The Go binary embeds web/dist; web/dist itself stays in git with its .keep file.
    outDir: 'dist/app',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion|@popperjs)[\\/]/ },
            // Only the inbox map needs these; they load when it first opens.
            { name: 'map', test: /node_modules[\\/](leaflet|world-atlas|topojson-client)[\\/]/ },
            // Vector tiles and PMTiles archives, drawn only when the operator set them (docs/maps.md).
            {
              name: 'tiles',
              test: /node_modules[\\/](protomaps-leaflet|pmtiles|@protomaps|@mapbox|pbf|fflate|rbush|quickselect|potpack|color2k|protocol-buffers-schema|resolve-protobuf-schema)[\\/]/,
            },
            // The dashboard's charts; cached apart from the code that changes more often.
            { name: 'charts', test: /node_modules[\\/](echarts|zrender)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/beacon/v1', '/broadcasting', '/logout', '/healthz'].map((path) => [path, backend]),
    ),
  },
  test: {
    // happy-dom rather than jsdom: the same tests take less CPU (docs/engineering.md, issue 26).
    // A full load (lib/navigation.ts, a reload) does nothing in a test, as under jsdom: happy-dom
    // would fetch the page from its origin and replace the document the worker's files share.
    environment: 'happy-dom',
    // Its media queries apply at a desktop browser's width, past MUI's widest breakpoint (xl):
    // what the app hides on a small screen stays hidden, as in the browser tests.
    environmentOptions: {
      happyDOM: {
        width: 1920,
        height: 1080,
        settings: { navigation: { disableMainFrameNavigation: true, disableFallbackToSetURL: true } },
      },
    },
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // No time budget per test or hook: on a machine three times slower (or shared with other
    // builds) a test that works takes longer, and must still pass. What bounds a test that
    // fails is the one wait deadline in src/test/setup.ts, as internal/wait does in Go.
    testTimeout: 0,
    hookTimeout: 0,
    // Vitest leaves a core free by default; a file runs on each core instead (on CI's two, half
    // the time alone). In `make test` the Go and browser tests run beside it and the cores are
    // shared: none of them has a time budget to miss.
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: isolatedFiles,
          isolate: false,
          setupFiles: ['src/test/sharedWorker.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: isolatedFiles, isolate: true } },
    ],
  },
});
