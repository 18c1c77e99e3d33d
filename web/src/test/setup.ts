import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Two busy CI cores have taken over four seconds to render a page of a table; a wait that
// finds nothing still fails, only later.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
});

// jsdom has no canvas; ECharts measures label text with one. (Tests of pure logic run in Node,
// without a DOM at all.)
if (typeof HTMLCanvasElement !== 'undefined') {
  HTMLCanvasElement.prototype.getContext = function getContext() {
    return { font: '', measureText: (text: string) => ({ width: text.length * 6 }) };
  } as unknown as HTMLCanvasElement['getContext'];
}
// Nor a ResizeObserver, which charts use to follow their widget's size.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
