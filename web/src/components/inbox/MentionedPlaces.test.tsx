import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { profileQuery } from '../../hooks/useProfileQuery';
import { testMatch, testProfile } from '../../test/fixtures';
import { MentionedPlaces } from './MentionedPlaces';

const paris = { name: 'Paris', country_code: 'FR', point: { lat: 48.85, lon: 2.35 } };
const lyon = { name: 'Lyon', country_code: 'FR', point: { lat: 45.76, lon: 4.84 } };

function renderFor(showPlaces: boolean) {
  const client = new QueryClient();
  client.setQueryData(profileQuery.queryKey, testProfile({ is_mentioned_locations_enrichment_enabled: showPlaces }));
  const { post } = testMatch(1, {}, { mentioned_locations: [paris, lyon, paris] });
  return render(
    <QueryClientProvider client={client}>
      <MentionedPlaces post={post} />
    </QueryClientProvider>,
  );
}

describe('places a post mentions', () => {
  it('are listed once each when the setting is on', () => {
    renderFor(true);
    expect(screen.getByLabelText('Mentions Paris, Lyon')).toHaveTextContent('Mentions Paris, Lyon');
  });

  it('are hidden when the user turned them off', () => {
    const { container } = renderFor(false);
    expect(container).toBeEmptyDOMElement();
  });
});
