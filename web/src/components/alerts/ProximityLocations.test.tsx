import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LocationConfiguration } from '../../api/configurations';
import { MAX_PROXIMITY_LOCATIONS } from '../../lib/alerts';
import { fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { ProximityLocations } from './ProximityLocations';

function location(n: number): LocationConfiguration {
  return { id: n, fpid: `loc-${n}`, name: `Place ${n}`, address: `${n} Main Street` };
}

describe('proximity locations', () => {
  // Starts from a chosen list rather than picking each option: the limit is the server's (20).
  it('warns and blocks Apply beyond the maximum number of locations', async () => {
    const many = Array.from({ length: MAX_PROXIMITY_LOCATIONS + 1 }, (_, i) => location(i + 1));
    fakeServer({ 'GET /api/v1/configurations-manager/configurations': { data: many, meta: {} } });
    const onApply = vi.fn();
    renderWithApp(<ProximityLocations chosen={many.map((l) => l.fpid)} onApply={onApply} />, {
      profile: testProfile(),
    });
    expect(await screen.findByText(new RegExp(`at most ${MAX_PROXIMITY_LOCATIONS} locations`))).toBeInTheDocument();
    expect(screen.getByText(/Remove\s+1\s+to apply/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply locations' })).toBeDisabled();
  });

  it('applies a list within the maximum', async () => {
    const few = [location(1), location(2)];
    fakeServer({ 'GET /api/v1/configurations-manager/configurations': { data: few, meta: {} } });
    renderWithApp(<ProximityLocations chosen={['loc-1']} onApply={vi.fn()} />, { profile: testProfile() });
    expect(await screen.findByRole('button', { name: 'Apply locations' })).toBeEnabled();
    expect(screen.queryByText(/at most/)).not.toBeInTheDocument();
  });
});
