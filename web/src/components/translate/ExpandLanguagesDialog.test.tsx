import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, type Request } from '../../test/fakeServer';
import { testGroup, testProfile, testProviders } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { openSearchBuilder } from '../../test/searchBuilder';
import { ExpandLanguagesDialog, MAX_EXPANSION_TRANSLATIONS } from './ExpandLanguagesDialog';

const user = userEvent.setup({ delay: null });

const DICTIONARY: Record<string, Record<string, string>> = {
  fr: { flood: 'inondation', spam: 'pourriel', 'bridge closed': 'pont fermé' },
  de: { flood: 'Hochwasser', spam: 'Spam', 'bridge closed': 'Brücke gesperrt' },
};

const translation = (req: Request) => {
  const { query, destination_language: to } = req.body as { query: string; destination_language: string };
  return { data: { translation: DICTIONARY[to]?.[query] ?? `${to}-${query}`, entitiesInDocument: null } };
};

async function fill(field: HTMLElement, text: string) {
  // Focused, not clicked: a click opens a language list with all its ~105 options drawn.
  act(() => field.focus());
  await user.paste(text);
}

async function chooseLanguages(dialog: HTMLElement, names: string[]) {
  const field = within(dialog).getByRole('combobox', { name: 'Languages' });
  for (const name of names) {
    await fill(field, name);
    await user.click(await screen.findByRole('option', { name }));
  }
  await user.keyboard('{Escape}');
}

describe('Expand to languages', () => {
  it('translates each keyword of the builder’s search, shows them for review, and adds them per keyword', async () => {
    const requests = fakeServer({
      'GET /api/v1/monitor/providers': { data: testProviders },
      'GET /api/v1/monitor/monitor-search-groups': { data: [testGroup(3, { name: 'Protests' })] },
      'GET /api/v1/filter-lists/': { data: [] },
      'POST /api/v1/translate': translation,
    });
    const builder = await openSearchBuilder(testProfile({ translation: true }));
    const keywords = within(builder).getByLabelText('Keywords');
    await fill(keywords, 'flood -spam "bridge closed"~3 protest*');
    await user.click(within(builder).getByRole('button', { name: 'Expand to languages' }));

    const dialog = await screen.findByRole('dialog', { name: 'Expand to languages' });
    // Wildcards stand for spellings, not words: they are not translated.
    expect(within(dialog).getByText('flood, spam, bridge closed')).toBeInTheDocument();
    const translate = within(dialog).getByRole('button', { name: 'Translate' });
    expect(translate).toBeDisabled();
    await chooseLanguages(dialog, ['French', 'German']);
    await user.click(translate);

    const review = await within(dialog).findByRole('button', { name: 'Remove inondation (French)' });
    expect(review).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Remove Hochwasser (German)' })).toBeInTheDocument();
    // German "Spam" is the keyword itself: nothing to add for it.
    expect(within(dialog).queryByRole('button', { name: 'Remove Spam (German)' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove Brücke gesperrt (German)' }));
    const add = within(dialog).getByRole('button', { name: 'Add to search' });
    const want =
      '(flood OR inondation OR Hochwasser) -(spam OR pourriel) ("bridge closed"~3 OR "pont fermé"~3) protest*';
    expect(within(dialog).getByText(want)).toBeInTheDocument();
    await user.click(add);

    expect(screen.queryByRole('dialog', { name: 'Expand to languages' })).not.toBeInTheDocument();
    expect(keywords).toHaveValue(want);
    const sent = requests.filter((r) => r.path === '/api/v1/translate').map((r) => r.body);
    expect(sent).toHaveLength(6);
    expect(sent).toContainEqual({ query: 'bridge closed', destination_language: 'de', format: 'text' });
  });

  it('refuses an expansion the builder’s keyword rules refuse', async () => {
    fakeServer({ 'POST /api/v1/translate': translation });
    // Near the 255 characters a search with AND may have: the translations take it over.
    const query = `flood AND ${'x'.repeat(230)}`;
    const onApply = vi.fn();
    renderWithApp(<ExpandLanguagesDialog query={query} onApply={onApply} onClose={() => undefined} />, {
      profile: testProfile({ translation: true }),
    });
    const dialog = screen.getByRole('dialog', { name: 'Expand to languages' });
    await chooseLanguages(dialog, ['French']);
    await user.click(within(dialog).getByRole('button', { name: 'Translate' }));
    expect(await within(dialog).findByText(/at most 255 characters/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add to search' })).toBeDisabled();
  });

  it('bounds the translations asked at once', async () => {
    fakeServer({ 'POST /api/v1/translate': translation });
    const words = Array.from({ length: MAX_EXPANSION_TRANSLATIONS / 2 + 1 }, (_, i) => `word${i}`);
    renderWithApp(
      <ExpandLanguagesDialog query={words.join(' ')} onApply={() => undefined} onClose={() => undefined} />,
      {
        profile: testProfile({ translation: true }),
      },
    );
    const dialog = screen.getByRole('dialog', { name: 'Expand to languages' });
    await chooseLanguages(dialog, ['French', 'German']);
    expect(
      within(dialog).getByText(/At most 60 translations at once: 31 keywords in 2 languages make 62/),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Translate' })).toBeDisabled();
  });
});
