import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/transport';
import { testProfile } from '../test/fixtures';
import { renderWithApp } from '../test/renderApp';
import { searchErrorType } from '../lib/searchError';
import { SearchErrorPage } from './SearchErrorPage';

describe('search error types', () => {
  it.each([
    { error: new ApiError('The search was not found.', 404), type: 'ERROR_404' },
    { error: new ApiError('Request timed out', 0), type: 'ERROR_LOADING' },
    { error: new ApiError('You’ve exceeded the search rate limit.', 429), type: 'ERROR_LOADING' },
    { error: new ApiError('Temporarily unable to run a search.', 503), type: 'ERROR_LOADING' },
    { error: new ApiError('Internal', 500), type: 'ERROR_LOADING' },
    { error: new ApiError('Invalid search parameters', 422), type: 'ERROR_UNKNOWN' },
    { error: new ApiError('Your subscription does not include Locate.', 403), type: 'ERROR_UNKNOWN' },
    { error: new Error('boom'), type: 'ERROR_UNKNOWN' },
  ])('$error.message ($error.status) is $type', ({ error, type }) => {
    expect(searchErrorType(error)).toBe(type);
  });
});

function renderPage(error: Error, onRetry = vi.fn()) {
  renderWithApp(<SearchErrorPage error={error} fallback="Search failed" onRetry={onRetry} />, {
    profile: testProfile({ email: 'ana@acme.test' }),
  });
  return onRetry;
}

describe('search error page', () => {
  it('offers to try again a search the server could not run, with its code', async () => {
    const retry = renderPage(new ApiError('Temporarily unable to run a search. Try again in a couple seconds.', 503));
    expect(await screen.findByRole('heading', { name: 'Search Error' })).toBeInTheDocument();
    expect(screen.getByText('Error 503')).toBeInTheDocument();
    expect(screen.getByText('Temporarily unable to run a search. Try again in a couple seconds.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
    expect(screen.getByRole('link', { name: 'Contact support' })).toBeInTheDocument();
  });

  it('shows no code when no reply came, and the fallback words', async () => {
    renderPage(new ApiError('Failed to fetch', 0));
    expect(await screen.findByText('Search failed')).toBeInTheDocument();
    expect(screen.queryByText(/^Error \d+/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('goes back from a search whose subject is gone', async () => {
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => undefined);
    renderPage(new ApiError('The saved search was not found.', 404));
    expect(await screen.findByText('Error 404')).toBeInTheDocument();
    expect(screen.getByText('The saved search was not found.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Go Back' }));
    expect(back).toHaveBeenCalledOnce();
    back.mockRestore();
  });

  it('offers nothing to retry for a refused search, only support', async () => {
    renderPage(new ApiError('Invalid search parameters', 422));
    expect(await screen.findByText('Error 422')).toBeInTheDocument();
    expect(screen.getByText('Invalid search parameters')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Go Back' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact support' })).toBeInTheDocument();
  });
});
