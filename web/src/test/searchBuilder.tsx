import { fireEvent, screen } from '@testing-library/react';
import type { MonitorSearch } from '../api/monitor';
import type { Profile } from '../api/settings';
import { SearchBuilderProvider } from '../components/searchBuilder/SearchBuilderProvider';
import { SearchBuilderContext } from '../hooks/useSearchBuilder';
import { renderWithApp } from './renderApp';

/**
 * Renders the app's one search builder with a button that opens it on a new search, as the
 * top bar's does (or on `editing`, as a search's menu does), without the shell and the page around it.
 */
export function renderSearchBuilder(profile: Profile, editing?: MonitorSearch) {
  return renderWithApp(
    <SearchBuilderProvider>
      <SearchBuilderContext.Consumer>
        {(builder) => (
          <button type="button" onClick={() => (editing ? builder?.edit(editing) : builder?.create())}>
            {editing ? 'Edit search' : 'New saved search'}
          </button>
        )}
      </SearchBuilderContext.Consumer>
    </SearchBuilderProvider>,
    { profile },
  );
}

/** Renders the builder, opens it on a new search and returns its dialog once the form is drawn. */
export async function openSearchBuilder(profile: Profile): Promise<HTMLElement> {
  renderSearchBuilder(profile);
  fireEvent.click(screen.getByRole('button', { name: 'New saved search' }));
  const dialog = await screen.findByRole('dialog', { name: 'New saved search' });
  await screen.findByLabelText('Keywords');
  return dialog;
}

/** Renders the builder, opens it on a saved search to edit and returns its dialog once the form is drawn. */
export async function openSearchEditor(profile: Profile, search: MonitorSearch): Promise<HTMLElement> {
  renderSearchBuilder(profile, search);
  fireEvent.click(screen.getByRole('button', { name: 'Edit search' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit saved search' });
  await screen.findByLabelText('Keywords');
  return dialog;
}
