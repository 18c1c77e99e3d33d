import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, Reply, type Request } from '../../test/fakeServer';
import { testGroup, testProfile, testProviders } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { openSearchBuilder } from '../../test/searchBuilder';
import { BeaconSearchBar } from '../beacon/BeaconSearchBar';
import { KeywordTranslator } from './KeywordTranslator';

const user = userEvent.setup({ delay: null });

const DICTIONARY: Record<string, Record<string, string>> = {
  fr: { bridge: 'pont', 'road closed': 'route fermée OR route barrée,', flood: 'inondation' },
};

/** The translation server: the dictionary's words, or the text with the language in front. */
const translation = (req: Request) => {
  const { query, destination_language: to } = req.body as { query: string; destination_language: string };
  return { data: { translation: DICTIONARY[to]?.[query] ?? `${to}-${query}`, entitiesInDocument: null } };
};

function builderServer(): Request[] {
  return fakeServer({
    'GET /api/v1/monitor/providers': { data: testProviders },
    'GET /api/v1/monitor/monitor-search-groups': { data: [testGroup(3, { name: 'Protests' })] },
    'GET /api/v1/filter-lists/': { data: [] },
    'POST /api/v1/translate': translation,
  });
}

async function openBuilder(translates: boolean) {
  return openSearchBuilder(testProfile({ translation: translates }));
}

/** Types into a field in one event: a keystroke each re-renders the whole builder. */
async function fill(field: HTMLElement, text: string) {
  // Focused, not clicked: a click opens a language list with all its ~105 options drawn.
  act(() => field.focus());
  await user.paste(text);
}

async function chooseLanguage(scope: HTMLElement, label: string, name: string) {
  await fill(within(scope).getByRole('combobox', { name: label }), name);
  await user.click(await screen.findByRole('option', { name }));
}

describe('keyword translation helper', () => {
  beforeEach(() => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB']);
  });
  afterEach(() => vi.restoreAllMocks());

  it('translates the builder’s keywords, lets a translation be removed, and adds the rest joined with OR', async () => {
    const requests = builderServer();
    const dialog = await openBuilder(true);
    const keywords = within(dialog).getByLabelText('Keywords');
    await fill(keywords, 'bridge, "road closed"');
    await user.click(within(dialog).getByRole('button', { name: 'Translate keywords' }));
    const helper = within(dialog).getByRole('group', { name: 'Translate keywords' });
    expect(within(helper).getByLabelText('Keywords to translate')).toHaveValue('bridge, "road closed"');
    // Without a language (the browser's is English) there is nothing to translate into yet.
    expect(within(helper).getByRole('button', { name: 'Translate' })).toBeDisabled();
    await chooseLanguage(helper, 'Into', 'French');
    await user.click(within(helper).getByRole('button', { name: 'Translate' }));

    expect(await within(helper).findByRole('button', { name: 'Remove pont' })).toBeInTheDocument();
    expect(within(helper).getByRole('button', { name: 'Remove route fermée' })).toBeInTheDocument();
    await user.click(within(helper).getByRole('button', { name: 'Remove route barrée' }));
    expect(within(helper).queryByRole('button', { name: 'Remove route barrée' })).not.toBeInTheDocument();
    await user.click(within(helper).getByRole('button', { name: 'Add to search' }));
    expect(keywords).toHaveValue('bridge, "road closed" OR pont OR "route fermée"');

    const sent = requests.filter((r) => r.path === '/api/v1/translate').map((r) => r.body);
    expect(sent).toEqual([
      { query: 'bridge', destination_language: 'fr', format: 'text' },
      { query: 'road closed', destination_language: 'fr', format: 'text' },
    ]);
  });

  it('lists the languages of web news first, from the list shipped with the app', async () => {
    renderWithApp(<KeywordTranslator query="" onChange={() => undefined} />, {
      profile: testProfile({ translation: true }),
    });
    await user.click(screen.getByRole('combobox', { name: 'Into' }));
    const listbox = await screen.findByRole('listbox');
    const groups = within(listbox)
      .getAllByRole('listitem')
      .map((g) => g.firstElementChild?.textContent);
    expect(groups).toEqual(['Languages of web news', 'Other languages']);
    expect(within(listbox).getAllByRole('option').length).toBeGreaterThan(100);
  });

  it('says a failure in an error snackbar and shows no translations', async () => {
    fakeServer({
      'POST /api/v1/translate': new Reply(502, { message: 'The translation server failed: it answered HTTP 500' }),
    });
    renderWithApp(<KeywordTranslator query="bridge" onChange={() => undefined} />, {
      profile: testProfile({ translation: true }),
    });
    const helper = screen.getByRole('group', { name: 'Translate keywords' });
    await chooseLanguage(helper, 'Into', 'German');
    await user.click(within(helper).getByRole('button', { name: 'Translate' }));
    expect(await screen.findByText('The translation server failed: it answered HTTP 500')).toBeInTheDocument();
    expect(within(helper).queryByRole('button', { name: 'Add to search' })).not.toBeInTheDocument();
    expect(within(helper).getByRole('button', { name: 'Translate' })).toBeEnabled();
  });

  it('cancel aborts the calls under way', async () => {
    const signals: AbortSignal[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_input: unknown, init?: RequestInit) => {
        if (init?.signal) signals.push(init.signal);
        return new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      }),
    );
    renderWithApp(<KeywordTranslator query="flood, bridge" onChange={() => undefined} />, {
      profile: testProfile({ translation: true }),
    });
    const helper = screen.getByRole('group', { name: 'Translate keywords' });
    await chooseLanguage(helper, 'Into', 'Italian');
    await user.click(within(helper).getByRole('button', { name: 'Translate' }));
    expect(await within(helper).findByText('Translating into Italian…')).toBeInTheDocument();
    expect(signals).toHaveLength(2);
    await user.click(within(helper).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(signals.every((s) => s.aborted)).toBe(true));
    expect(within(helper).queryByText('Translating into Italian…')).not.toBeInTheDocument();
    expect(within(helper).getByRole('button', { name: 'Translate' })).toBeEnabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('is not offered when the server does not translate', async () => {
    builderServer();
    const dialog = await openBuilder(false);
    expect(within(dialog).queryByRole('button', { name: 'Translate keywords' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Expand to languages' })).not.toBeInTheDocument();
  });

  it('lives in the Beacon help panel behind its toggle, starting in the browser’s language', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-CA', 'en']);
    fakeServer({ 'POST /api/v1/translate': translation });
    const onSearch = vi.fn();
    renderWithApp(
      <BeaconSearchBar
        initialQuery=""
        onSearch={onSearch}
        onClear={() => undefined}
        onBreachSearch={() => undefined}
      />,
      { profile: testProfile({ translation: true }) },
    );
    const box = screen.getByRole('textbox', { name: 'Search posts' });
    await fill(box, 'flood');
    const panel = screen.getByRole('region', { name: 'Search help' });
    await user.click(within(panel).getByRole('switch', { name: 'Translate keywords' }));
    const helper = within(panel).getByRole('group', { name: 'Translate keywords' });
    expect(within(helper).getByRole('combobox', { name: 'Into' })).toHaveValue('French');
    // Enter in the helper translates rather than running the search.
    await user.type(within(helper).getByLabelText('Keywords to translate'), '{Enter}');
    await user.click(await within(helper).findByRole('button', { name: 'Add to search' }));
    expect(box).toHaveValue('flood OR inondation');
    expect(onSearch).not.toHaveBeenCalled();
    expect(screen.getByRole('region', { name: 'Search help' })).toBeInTheDocument();
  });

  it('has no toggle in the Beacon help panel when the server does not translate', async () => {
    renderWithApp(
      <BeaconSearchBar
        initialQuery=""
        onSearch={() => undefined}
        onClear={() => undefined}
        onBreachSearch={() => undefined}
      />,
      { profile: testProfile({ translation: false }) },
    );
    await user.click(screen.getByRole('textbox', { name: 'Search posts' }));
    const panel = screen.getByRole('region', { name: 'Search help' });
    expect(within(panel).getByRole('switch', { name: 'Advanced operators' })).toBeInTheDocument();
    expect(within(panel).queryByRole('switch', { name: 'Translate keywords' })).not.toBeInTheDocument();
  });
});
