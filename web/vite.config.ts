import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

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
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // No time budget per test or hook: on a machine three times slower (or shared with other
    // builds) a test that works takes longer, and must still pass. What bounds a test that
    // fails is the one wait deadline in src/test/setup.ts, as internal/wait does in Go.
    testTimeout: 0,
    hookTimeout: 0,
    // Vitest leaves a core free by default; a file runs on each core instead (on CI's two, half
    // the time alone). In `make test` the Go and browser tests run beside it and the cores are
    // shared: none of them has a time budget to miss.
    maxWorkers: '100%',
  },
});
