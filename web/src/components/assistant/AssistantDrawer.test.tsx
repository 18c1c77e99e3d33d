import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssistantReply } from '../../api/assistant';
import {
  APOLOGY,
  EXAMPLE_PROMPTS,
  REVEAL_INTERVAL_MS,
  SCROLL_THROTTLE_MS,
  SESSION_STORAGE_KEY,
} from '../../lib/assistant';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile, testProviders } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { AssistantDrawer } from './AssistantDrawer';

const user = userEvent.setup({ delay: null });

const longText = `Dockers extended the harbour strike at the container terminal into a second day. ${'More detail. '.repeat(30)}`;

const reply: AssistantReply = {
  id: 41,
  related_searches: ['harbour strike terminal', 'harbour strike police'],
  response: 'Dockers extended the harbour strike. [1] Police watched the gates. [2]',
  relevant_documents: [
    {
      id: 'p1',
      provider: 'reddit',
      title_text: '',
      text: longText,
      author_name: 'Ana Lopez',
      author_screen_name: 'ana',
      created_at: 1_795_580_000,
      post_link: 'https://example.com/p1',
    },
    {
      id: 'p2',
      provider: 'reddit',
      title_text: '',
      text: 'Police watched the gates.',
      author_name: '',
      author_screen_name: 'bo_watch',
      created_at: 1_795_580_100,
    },
  ],
};

function renderDrawer() {
  return renderWithApp(<AssistantDrawer open onClose={() => undefined} />, { profile: testProfile() });
}

describe('the assistant drawer', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => vi.useRealTimers());

  it('offers three of the example prompts while the conversation is empty', async () => {
    fakeServer({ 'GET /api/v1/monitor/providers': { data: testProviders } });
    renderDrawer();
    const dialog = await screen.findByRole('dialog', { name: 'Assist' });
    const chips = within(dialog)
      .getAllByRole('button')
      .filter((b) => EXAMPLE_PROMPTS.includes(b.textContent ?? ''));
    expect(chips).toHaveLength(3);
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('asks, reveals the cited answer and shows its sources', async () => {
    const requests = fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'POST /api/v1/ai-insights/conversation': { data: reply },
    });
    renderDrawer();
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    await user.type(input, 'What about the harbour strike?');
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    expect(input).toHaveValue('');
    const log = screen.getByRole('log', { name: 'Conversation with the assistant' });
    expect(within(log).getByText('What about the harbour strike?')).toBeInTheDocument();
    await waitFor(() => expect(within(log).getByRole('button', { name: 'Source 2' })).toBeInTheDocument());
    const ask = requests.find((r) => r.path === '/api/v1/ai-insights/conversation');
    expect(ask?.body).toEqual({
      input: 'What about the harbour strike?',
      sessionId: sessionStorage.getItem(SESSION_STORAGE_KEY),
    });

    await user.click(screen.getByRole('button', { name: 'View Sources (2)' }));
    const panel = screen.getByRole('region', { name: 'Sources of the answer' });
    // The screen name stands in for a missing author name.
    await user.click(within(panel).getByRole('button', { name: /^\[2\] bo_watch/ }));
    expect(within(panel).getByText('Police watched the gates.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Back to sources' }));
    await user.click(within(panel).getByRole('button', { name: /^\[1\] Ana Lopez/ }));
    expect(within(panel).queryByText(longText.trim())).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Show more' }));
    expect(within(panel).getByText(longText.trim())).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Show less' }));
    await user.click(screen.getByRole('button', { name: 'Hide Sources (2)' }));
    expect(screen.queryByRole('region', { name: 'Sources of the answer' })).not.toBeInTheDocument();
  });

  it('asks a related search in the same conversation, and rates the answer by its id', async () => {
    const requests = fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'POST /api/v1/ai-insights/conversation': (r: { body: { input: string } }) => ({
        data: r.body.input === 'harbour strike police' ? { ...reply, id: 42, related_searches: [] } : reply,
      }),
      'PUT /api/v1/ai-insights/messages/41/feedback': {
        data: { message_id: 41, rating: 'up', comment: '', updated_at: 1_795_580_000 },
      },
    });
    renderDrawer();
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    await user.type(input, 'What about the harbour strike?{Enter}');
    const log = screen.getByRole('log', { name: 'Conversation with the assistant' });
    const related = await within(log).findByRole('region', { name: 'Related searches' });
    await user.click(within(log).getByRole('button', { name: 'Helpful' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PUT')).toMatchObject({
        path: '/api/v1/ai-insights/messages/41/feedback',
        body: { rating: 'up', comment: '' },
      }),
    );

    await user.click(within(related).getByRole('button', { name: 'harbour strike police' }));
    expect(within(log).getAllByText('harbour strike police')).toHaveLength(2); // the chip and the question
    await waitFor(() => expect(within(log).getAllByRole('group', { name: 'Rate this answer' })).toHaveLength(2));
    const asked = requests.filter((r) => r.path === '/api/v1/ai-insights/conversation').map((r) => r.body);
    expect(asked).toEqual([
      { input: 'What about the harbour strike?', sessionId: sessionStorage.getItem(SESSION_STORAGE_KEY) },
      { input: 'harbour strike police', sessionId: sessionStorage.getItem(SESSION_STORAGE_KEY) },
    ]);
    // The second answer has no related searches of its own.
    expect(within(log).getAllByRole('region', { name: 'Related searches' })).toHaveLength(1);
  });

  it('shows the loading bubble only after 300 ms, and stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fakeServer({ 'GET /api/v1/monitor/providers': { data: testProviders } }); // the question never answers
    renderDrawer();
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    const typing = userEvent.setup({ delay: null, advanceTimers: vi.advanceTimersByTime });
    await typing.type(input, 'Anything new?{Enter}');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(350);
    });
    expect(screen.getByRole('status')).toHaveTextContent('Looking through the last 7 days of posts');
    await typing.click(screen.getByRole('button', { name: 'Stop' }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(screen.getByText('Anything new?')).toBeInTheDocument();
  });

  it('apologises on any error, and starts a new topic with a new session', async () => {
    fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'POST /api/v1/ai-insights/conversation': new Reply(502, { message: 'The language model server did not answer.' }),
    });
    renderDrawer();
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    const before = sessionStorage.getItem(SESSION_STORAGE_KEY);
    await user.type(input, 'Anything new?{Enter}');
    expect(await screen.findByText(APOLOGY)).toBeInTheDocument();
    // Nothing was stored: nothing to rate, nothing related.
    expect(screen.queryByRole('group', { name: 'Rate this answer' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Related searches' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New topic' }));
    expect(screen.queryByText('Anything new?')).not.toBeInTheDocument();
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).not.toBe(before);
  });

  it('follows the answer down, throttled, unless the user scrolled up', async () => {
    // The answer is typed a character every few milliseconds: the test moves the clock through it.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const scrollTo = vi.fn();
    const original = Element.prototype.scrollTo;
    Element.prototype.scrollTo = scrollTo as unknown as typeof Element.prototype.scrollTo;
    try {
      const long = `${'The harbour strike goes on. '.repeat(12)}[1]`;
      fakeServer({
        'GET /api/v1/monitor/providers': { data: testProviders },
        'POST /api/v1/ai-insights/conversation': { data: { ...reply, response: long } },
      });
      renderDrawer();
      const input = await screen.findByRole('textbox', { name: 'Your question' });
      await user.type(input, 'Strike?{Enter}');
      const log = screen.getByRole('log', { name: 'Conversation with the assistant' });
      await waitFor(() => expect(within(log).getByText(/The harbour strike goes on/)).toBeInTheDocument());
      await waitFor(() => expect(scrollTo).toHaveBeenCalledWith({ top: expect.any(Number), behavior: 'smooth' }));
      // Throttled: far fewer scrolls than characters typed so far.
      expect(scrollTo.mock.calls.length).toBeLessThan(10);

      // The user scrolls up more than 100 px from the end: typing goes on, the view stays.
      Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 2000 });
      Object.defineProperty(log, 'clientHeight', { configurable: true, value: 500 });
      log.scrollTop = 1500; // at the end
      fireEvent.scroll(log);
      log.scrollTop = 100; // then up
      fireEvent.scroll(log);
      scrollTo.mockClear();
      // Until the answer is typed out (Stop turns back into Send), with a scroll due any moment.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(long.length * REVEAL_INTERVAL_MS + SCROLL_THROTTLE_MS);
      });
      expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
      expect(scrollTo).not.toHaveBeenCalled();
    } finally {
      Element.prototype.scrollTo = original;
    }
  });

  it('shows the whole answer at once for users who ask for reduced motion', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      onchange: null,
      dispatchEvent: () => false,
    }));
    try {
      fakeServer({
        'GET /api/v1/monitor/providers': { data: testProviders },
        'POST /api/v1/ai-insights/conversation': { data: reply },
      });
      renderDrawer();
      const input = await screen.findByRole('textbox', { name: 'Your question' });
      await user.type(input, 'Strike?{Enter}');
      const log = screen.getByRole('log', { name: 'Conversation with the assistant' });
      // No typing: the citations are there as soon as the answer is.
      await within(log).findByText(/Dockers extended the harbour strike/);
      expect(within(log).getByRole('button', { name: 'Source 2' })).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
