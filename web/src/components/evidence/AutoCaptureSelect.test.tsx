import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { AutoCaptureSelect } from './AutoCaptureSelect';

const user = userEvent.setup({ delay: null });

describe('AutoCaptureSelect', () => {
  it('turns automatic capture of high-threat matches on', async () => {
    const requests = fakeServer({
      'GET /api/v1/monitor/searches/9/capture': { data: { mode: 'off', quota: 200 } },
      'PUT /api/v1/monitor/searches/9/capture': { data: { mode: 'high', quota: 200 } },
    });
    renderWithApp(<AutoCaptureSelect searchId={9} canEdit />, { profile: testProfile() });
    await user.click(await screen.findByRole('combobox', { name: 'Capture as evidence' }));
    await user.click(screen.getByRole('option', { name: 'High-threat matches' }));
    expect(await screen.findByRole('combobox', { name: 'Capture as evidence' })).toHaveTextContent('High-threat matches');
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ mode: 'high' });
  });

  it('is read-only for those who cannot edit the search', async () => {
    fakeServer({ 'GET /api/v1/monitor/searches/9/capture': { data: { mode: 'all', quota: 0 } } });
    renderWithApp(<AutoCaptureSelect searchId={9} canEdit={false} />, { profile: testProfile() });
    const select = await screen.findByRole('combobox', { name: 'Capture as evidence' });
    expect(select).toHaveTextContent('Every match');
    expect(select).toHaveAttribute('aria-disabled', 'true');
  });
});
