import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testMatch, testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { MentionedPlaces } from './MentionedPlaces';

const paris = { name: 'Paris', country_code: 'FR', point: { lat: 48.85, lon: 2.35 } };
const lyon = { name: 'Lyon', country_code: 'FR', point: { lat: 45.76, lon: 4.84 } };
const rio = { name: 'Rio de Janeiro', country_code: 'BR', point: { lat: -22.9, lon: -43.2 } };

const { post } = testMatch(1, {}, { id: 'news_1', mentioned_locations: [paris, lyon, paris, rio] });

function renderFor(profile = testProfile()) {
  return renderWithApp(<MentionedPlaces post={post} />, { profile });
}

afterEach(() => vi.unstubAllGlobals());

describe('places a post mentions', () => {
  it('are listed once each, each a link to Locate there', () => {
    renderFor();
    expect(screen.getByLabelText('Mentions Paris, Lyon, Rio de Janeiro')).toHaveTextContent(
      'Mentions Paris, Lyon, Rio de Janeiro',
    );
    const link = screen.getByRole('link', { name: 'Lyon' });
    const params = new URLSearchParams(link.getAttribute('href')!.split('?')[1]);
    expect(params.get('type')).toBe('location');
    expect(params.get('address')).toBe('Lyon');
    expect(params.get('bounds')).toContain('4.79 45.71');
  });

  it('are plain names for users without Locate', () => {
    renderFor(testProfile({ acl: { ...testProfile().acl, pro: false, enterprise: false } }));
    expect(screen.getByLabelText('Mentions Paris, Lyon, Rio de Janeiro')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('are hidden when the user turned them off', () => {
    renderFor(testProfile({ is_mentioned_locations_enrichment_enabled: false }));
    expect(screen.queryByText(/Mentions/)).not.toBeInTheDocument();
  });

  it('can be removed from the post, and put back', async () => {
    const requests = fakeServer({
      'DELETE /api/v1/posts/news_1/places/BR/Rio%20de%20Janeiro': { data: { mentioned_locations: [paris, lyon] } },
      'PUT /api/v1/posts/news_1/places/BR/Rio%20de%20Janeiro': { data: { mentioned_locations: [paris, lyon, rio] } },
    });
    renderFor();
    await userEvent.click(screen.getByRole('button', { name: 'Remove place Rio de Janeiro' }));
    expect(await screen.findByLabelText('Mentions Paris, Lyon')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Rio de Janeiro' })).not.toBeInTheDocument();
    expect(screen.getByText(/Removed Rio de Janeiro/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Restore place Rio de Janeiro' }));
    expect(await screen.findByLabelText('Mentions Paris, Lyon, Rio de Janeiro')).toBeInTheDocument();
    expect(screen.queryByText(/Removed/)).not.toBeInTheDocument();
    expect(requests.map((r) => r.method)).toEqual(['DELETE', 'PUT']);
  });

  it('stay when the server refuses, which says why', async () => {
    fakeServer({
      'DELETE /api/v1/posts/news_1/places/FR/Lyon': new Reply(404, { message: 'This place is not on the post.' }),
    });
    renderFor();
    await userEvent.click(screen.getByRole('button', { name: 'Remove place Lyon' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('This place is not on the post.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove place Lyon' })).toBeEnabled());
    expect(screen.getByLabelText('Mentions Paris, Lyon, Rio de Janeiro')).toBeInTheDocument();
  });
});
