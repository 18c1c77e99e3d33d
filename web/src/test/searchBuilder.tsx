import { fireEvent, screen } from '@testing-library/react';
import type { Profile } from '../api/settings';
import { SearchBuilderProvider } from '../components/searchBuilder/SearchBuilderProvider';
import { SearchBuilderContext } from '../hooks/useSearchBuilder';
import { renderWithApp } from './renderApp';

/**
 * Renders the app's one search builder with a button that opens it on a new search, as the
 * top bar's does, without the shell and the page around it.
 */
export function renderSearchBuilder(profile: Profile) {
  return renderWithApp(
    <SearchBuilderProvider>
      <SearchBuilderContext.Consumer>
        {(builder) => (
          <button type="button" onClick={() => builder?.create()}>
            New saved search
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
