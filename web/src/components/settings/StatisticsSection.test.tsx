import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { StatisticsSection } from './StatisticsSection';

const user = userEvent.setup({ delay: null });
const base = '/api/v1/settings/organizations/1/statistics';
const months = ['2026-10', '2026-11'];

afterEach(() => vi.unstubAllGlobals());

describe('statistics in Settings', () => {
  it('charts the organization’s and each member’s months, per product and figure, with spoken labels', async () => {
    const requests = fakeServer({
      [`GET ${base}/beacon/organization-counts-monthly`]: {
        data: { months, counts: { searches: [2, 5], matches: [30, 40], exports: [0, 1] } },
      },
      [`GET ${base}/beacon/member-counts-monthly`]: {
        data: {
          months,
          members: [
            {
              id: 1,
              name: 'Ada',
              email: 'ada@example.test',
              role: 'owner',
              searches: [2, 3],
              matches: [30, 0],
              exports: [0, 1],
            },
            {
              id: 2,
              name: 'Bob',
              email: 'bob@example.test',
              role: 'member',
              searches: [0, 2],
              matches: [0, 40],
              exports: [0, 0],
            },
          ],
        },
      },
      [`GET ${base}/locate/organization-counts-monthly`]: {
        data: { months, counts: { searches: [7, 8], matches: [1, 1], exports: [0, 0] } },
      },
      [`GET ${base}/locate/member-counts-monthly`]: { data: { months, members: [] } },
    });
    renderWithApp(<StatisticsSection organizationId={1} />, { profile: testProfile({ role: 'owner' }) });
    expect(
      await screen.findByRole('img', { name: 'Searches of the organization per month: Oct 2026 2, Nov 2026 5' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('img', { name: 'Searches per member over the last 2 months: Ada: 5, Bob: 2' }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Matches' }));
    expect(
      await screen.findByRole('img', { name: 'Matches of the organization per month: Oct 2026 30, Nov 2026 40' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Locate' }));
    expect(await screen.findByText(/Matches your saved searches collected/)).toBeInTheDocument();
    expect(
      await screen.findByRole('img', { name: 'Matches of the organization per month: Oct 2026 1, Nov 2026 1' }),
    ).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toContain(`${base}/locate/member-counts-monthly`);
  });
});
