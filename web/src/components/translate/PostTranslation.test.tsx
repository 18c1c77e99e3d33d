import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Post } from '../../api/monitor';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { COPIED_MS, PostTranslation } from './PostTranslation';

const post: Post = {
  id: 'p1',
  storyId: 'p1',
  provider: 'reddit',
  native_id: 'p1',
  content_type: 'text',
  content_text: 'Le pont est fermé.',
  language: 'fr',
  published_at: '2026-11-25T06:00:00Z',
  discovered_at: '2026-11-25T06:00:00Z',
  entities: {},
  threat: { score: 0 },
};

const translation = (req: { body: unknown }) => {
  const body = req.body as { query: string; destination_language: string };
  return { data: { translation: `[${body.destination_language}] ${body.query}`, entitiesInDocument: null } };
};

describe('PostTranslation', () => {
  beforeEach(() => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['pt-BR', 'en']);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('says why there is no translation on the control, not as text on the card', async () => {
    const user = userEvent.setup();
    renderWithApp(<PostTranslation post={post} />, { profile: testProfile({ translation: false }) });
    const control = screen.getByRole('button', { name: 'Translate' });
    expect(control).toBeDisabled();
    expect(control).toHaveAccessibleDescription('Translation is not configured on this server');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    await user.hover(control.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Translation is not configured on this server');
  });

  it('offers the six languages, the browser language and the original; fetches each language once', async () => {
    const requests = fakeServer({ 'POST /api/v1/translate': translation });
    const user = userEvent.setup();
    renderWithApp(<PostTranslation post={post} />, {
      profile: testProfile({ translation: true, is_translation_enrichment_enabled: false }),
    });
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    const items = screen.getAllByRole('menuitem').map((i) => i.textContent);
    expect(items).toEqual([
      'English',
      'French',
      'German',
      'Spanish',
      'Italian',
      'Japanese',
      'Portuguese (your browser)',
      'Original',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'English' }));
    expect(await screen.findByText('[en] Le pont est fermé.')).toBeInTheDocument();
    expect(screen.getByText('Translated from French to English')).toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/v1/translate')).toHaveLength(1);
    expect(requests[0]?.body).toEqual({
      query: 'Le pont est fermé.',
      destination_language: 'en',
      source_language: 'fr',
      format: 'text',
    });

    await user.click(screen.getByRole('button', { name: 'English' }));
    await user.click(screen.getByRole('menuitem', { name: 'Original' }));
    expect(screen.queryByText('[en] Le pont est fermé.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    await user.click(screen.getByRole('menuitem', { name: 'English' }));
    expect(await screen.findByText('[en] Le pont est fermé.')).toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/v1/translate')).toHaveLength(1);
  });

  it('shows the error in a snackbar and goes back to the original', async () => {
    fakeServer({
      'POST /api/v1/translate': new Reply(502, { message: 'The translation server failed: Model crashed (HTTP 500)' }),
    });
    const user = userEvent.setup();
    renderWithApp(<PostTranslation post={post} />, {
      profile: testProfile({ translation: true, is_translation_enrichment_enabled: false }),
    });
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    await user.click(screen.getByRole('menuitem', { name: 'German' }));
    expect(await screen.findByText('The translation server failed: Model crashed (HTTP 500)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Translate' })).toBeInTheDocument();
  });

  it('cancel aborts the call', async () => {
    let signal: AbortSignal | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn((_input: unknown, init?: RequestInit) => {
        signal = init?.signal ?? undefined;
        return new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      }),
    );
    const user = userEvent.setup();
    renderWithApp(<PostTranslation post={post} />, {
      profile: testProfile({ translation: true, is_translation_enrichment_enabled: false }),
    });
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    await user.click(screen.getByRole('menuitem', { name: 'Spanish' }));
    expect(await screen.findByText('Translating to Spanish…')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(signal?.aborted).toBe(true));
    expect(screen.queryByText('Translating to Spanish…')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens in the browser language with translation enrichment on; Copy says Copied for a second', async () => {
    fakeServer({ 'POST /api/v1/translate': translation });
    const user = userEvent.setup(); // before the clipboard stub: user-event installs its own
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithApp(<PostTranslation post={post} />, {
      profile: testProfile({ translation: true, is_translation_enrichment_enabled: true }),
    });
    expect(await screen.findByText('[pt] Le pont est fermé.')).toBeInTheDocument();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('[pt] Le pont est fermé.');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(COPIED_MS + 10);
    });
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });

  it('translates the title and the text apart and shows each in its place; Copy takes both', async () => {
    const requests = fakeServer({ 'POST /api/v1/translate': translation });
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const titled: Post = { ...post, title_text: '  Fermeture du pont ', content_text: 'Le pont est fermé.\nDéviation.' };
    renderWithApp(<PostTranslation post={titled} />, {
      profile: testProfile({ translation: true, is_translation_enrichment_enabled: false }),
    });
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    await user.click(screen.getByRole('menuitem', { name: 'English' }));
    const region = await screen.findByRole('region', { name: 'Translation to English' });
    const title = await within(region).findByText('[en] Fermeture du pont');
    const text = within(region).getByText(/\[en\] Le pont est fermé\./);
    expect(title.tagName).toBe('P');
    expect(title.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const bodies = requests.filter((r) => r.path === '/api/v1/translate').map((r) => r.body);
    expect(bodies).toEqual(
      expect.arrayContaining([
        { query: 'Fermeture du pont', destination_language: 'en', source_language: 'fr', format: 'text' },
        { query: 'Le pont est fermé.\nDéviation.', destination_language: 'en', source_language: 'fr', format: 'text' },
      ]),
    );
    expect(bodies).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('[en] Fermeture du pont\n\n[en] Le pont est fermé.\nDéviation.');
  });

  it('sends no title when the post has none', async () => {
    const requests = fakeServer({ 'POST /api/v1/translate': translation });
    const user = userEvent.setup();
    renderWithApp(<PostTranslation post={post} />, {
      profile: testProfile({ translation: true, is_translation_enrichment_enabled: false }),
    });
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    await user.click(screen.getByRole('menuitem', { name: 'English' }));
    const region = await screen.findByRole('region', { name: 'Translation to English' });
    await within(region).findByText('[en] Le pont est fermé.');
    expect(within(region).getAllByText(/\[en\]/)).toHaveLength(1);
    expect(requests.filter((r) => r.path === '/api/v1/translate')).toHaveLength(1);
  });
});
