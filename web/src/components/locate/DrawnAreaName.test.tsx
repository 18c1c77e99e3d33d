import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { drawnAreaLabel, REVERSE_GEOCODE_FAILED } from '../../lib/drawnArea';
import { DrawnAreaName } from './DrawnAreaName';

const LYON_AREA = 'POLYGON((4.8 45.7,4.9 45.7,4.9 45.8,4.8 45.8,4.8 45.7))';
const lyon = {
  address: 'Lyon, Auvergne-Rhône-Alpes, France',
  name: 'Lyon',
  country_code: 'FR',
  kind: 'city',
  point: { lat: 45.748, lon: 4.847 },
  distance_km: 0.4,
  is_address_in_us_territory: false,
};

describe('the name of a drawn area', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    { name: 'names the area by the place at its centre', reply: { data: lyon }, text: 'Area around Lyon, Auvergne-Rhône-Alpes, France' },
    {
      name: 'says when no place is near',
      reply: new Reply(404, { message: 'No named place within 100 km of this point.' }),
      text: 'The drawn area is far from any named place.',
    },
    { name: 'says when the geocoder failed', reply: new Reply(500, { message: 'boom' }), text: REVERSE_GEOCODE_FAILED },
  ])('$name', async ({ reply, text }) => {
    const requests = fakeServer({ 'GET /api/v1/geocode/reverse': reply });
    renderWithApp(<DrawnAreaName wkt={LYON_AREA} />, { profile: testProfile() });
    expect(await screen.findByText(text)).toBeVisible();
    expect(requests).toHaveLength(1);
    expect(Object.fromEntries(requests[0]!.query)).toEqual({ lat: '45.75', lon: '4.85' });
  });

  it('asks nothing for what is not an area', async () => {
    const requests = fakeServer({ 'GET /api/v1/geocode/reverse': { data: lyon } });
    renderWithApp(
      <>
        <span>rendered</span>
        <DrawnAreaName wkt="" />
        <DrawnAreaName wkt="POINT(4 45)" />
      </>,
      { profile: testProfile() },
    );
    await screen.findByText('rendered');
    expect(screen.queryByText(/drawn area|Area around/i)).not.toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/v1/geocode/reverse')).toHaveLength(0);
  });

  it('labels a drawn area for the save dialog', () => {
    expect(drawnAreaLabel('Lyon, Auvergne-Rhône-Alpes, France')).toBe('Area around Lyon, Auvergne-Rhône-Alpes, France');
    expect(drawnAreaLabel(undefined)).toBe('Drawn area');
  });
});
