import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { visibilityOnly } from './emotionForTests';

// The one deadline of every findBy/waitFor, the same as the Go tests' (internal/wait): two
// busy cores have taken over four seconds to render a page of a table, and a machine three
// times slower must still pass. A test that works waits only as long as the page takes; only a
// failing one spends the deadline. No test checks an absence by letting a wait run out.
configure({ asyncUtilTimeout: 120_000 });

afterEach(() => {
  cleanup();
});

// A test's server is the fetch it stubs (vi.stubGlobal). Without one, happy-dom's fetch would send
// the request to its page's origin (localhost:3000) over the network; a request no test answers
// (a refetch after the test restored the stub) fails at once instead, as it did under jsdom,
// whose Node fetch refused the app's relative paths.
globalThis.fetch = () => Promise.reject(new TypeError('no server in the tests: stub fetch'));

// happy-dom has no canvas; ECharts measures label text with one. (Tests of pure logic run in Node,
// without a DOM at all.)
if (typeof HTMLCanvasElement !== 'undefined') {
  HTMLCanvasElement.prototype.getContext = function getContext() {
    return { font: '', measureText: (text: string) => ({ width: text.length * 6 }) };
  } as unknown as HTMLCanvasElement['getContext'];
}

// happy-dom lays nothing out, but its getComputedStyle matches every CSS rule in the document
// against the element and its ancestors: Emotion's rules reach it with only what a test can
// observe (emotionForTests.ts).
if (typeof HTMLStyleElement !== 'undefined') {
  const appendChild = Node.prototype.appendChild;
  HTMLStyleElement.prototype.appendChild = function appendStyle<T extends Node>(this: HTMLStyleElement, node: T): T {
    if (node.nodeType === Node.TEXT_NODE && this.hasAttribute('data-emotion')) {
      node.textContent = visibilityOnly(node.textContent ?? '');
    }
    return appendChild.call(this, node) as T;
  };
}
