import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { forgetToken } from '../api/transport';

// Leaflet reads the browser as it loads: only files with a DOM load it.
const baseMap = typeof document === 'undefined' ? undefined : await import('../lib/baseMap');

// The files of Vitest's "shared" project run one after another in a worker that keeps the
// modules it loaded and its one document (`isolate: false`, vite.config.ts). So that no file sees
// what another left, each test ends here as a file of its own would have started: no timers
// faked, nothing held by the app's modules, the page, the storages and the cookies empty.
// (Stubbed globals are restored by `unstubGlobals`, spies by `restoreMocks`.) What Testing
// Library rendered is unmounted first, so that nothing written as it unmounts is left.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  forgetToken();
  baseMap?.resetStreetLevelHint();
  if (typeof document === 'undefined') return;
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  document.title = '';
  window.history.replaceState(null, '', '/');
});
