import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../test/fakeServer';
import { testProfile } from '../test/fixtures';
import { renderWithApp } from '../test/renderApp';
import { MonitorNavigation } from './MonitorNavigation';

const user = userEvent.setup({ delay: null });

function renderNavigation(userId: number) {
  fakeServer({ 'GET /api/v1/monitor/searches': { data: [] } });
  return renderWithApp(<MonitorNavigation />, { profile: { ...testProfile(), id: userId } });
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('matches sidebar', () => {
  it('starts open on a wide screen, and remembers for the user that it was closed, then opened', async () => {
    const first = renderNavigation(7);
    expect(screen.getByRole('button', { name: 'Close the sidebar' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Search filters')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Close the sidebar' }));
    expect(screen.getByRole('button', { name: 'Open the sidebar' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('Search filters')).not.toBeInTheDocument();
    first.unmount();

    const again = renderNavigation(7);
    expect(screen.getByRole('button', { name: 'Open the sidebar' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open the sidebar' }));
    again.unmount();

    renderNavigation(7);
    expect(screen.getByRole('button', { name: 'Close the sidebar' })).toBeInTheDocument();
  });

  it('keeps each user’s choice apart', async () => {
    const first = renderNavigation(7);
    await user.click(screen.getByRole('button', { name: 'Close the sidebar' }));
    first.unmount();

    renderNavigation(8);
    expect(screen.getByRole('button', { name: 'Close the sidebar' })).toBeInTheDocument();
  });
});
