import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rectangleWkt } from '../../lib/wkt';

describe('Locate map', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  // Leaflet animates a zoom only where the browser has 3D transforms, which jsdom lacks: the
  // test lends it WebKit's matrix (Leaflet's test for them) before Leaflet loads, and a size.
  it('is removed mid-zoom, as a drawn area starts a search, without Leaflet throwing', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'WebKitCSSMatrix',
      class {
        m11 = 1;
      },
    );
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    // Loaded after the stubs, with the query client the map reads its base from (the outlines).
    const { LocateMap } = await import('./LocateMap');
    const { QueryClient, QueryClientProvider } = await import('@tanstack/react-query');
    const { mapKeys } = await import('../../api/keys');
    const { OUTLINES } = await import('../../lib/baseMap');
    const queryClient = new QueryClient();
    queryClient.setQueryData(mapKeys.base, OUTLINES);
    const withClient = (ui: ReactNode) => <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>;
    const props = {
      posts: [],
      providers: new Map(),
      highlighted: null,
      onSelect: () => undefined,
      drawMode: null,
      onDrawn: () => undefined,
    };
    const view = render(withClient(<LocateMap area="" {...props} />));
    // The drawn rectangle, fitted into view with an animated zoom.
    view.rerender(
      withClient(<LocateMap area={rectangleWkt({ lat: 45.7, lon: 4.8 }, { lat: 45.8, lon: 4.9 })} {...props} />),
    );
    vi.advanceTimersByTime(20);
    const animating = view.container.querySelector('.leaflet-zoom-anim');
    view.unmount();
    expect(animating).not.toBeNull();
    expect(() => vi.advanceTimersByTime(500)).not.toThrow();
  });
});
