import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../test/fakeServer';
import { testProfile } from '../test/fixtures';
import { renderApp } from '../test/renderApp';

const noProducts = {
  beacon: false,
  pro: false,
  enterprise: false,
  locate_api: false,
  rfi: false,
  intel_reports: false,
};

describe('search products without the subscription', () => {
  it.each([
    { path: '/locate', heading: 'Locate', title: 'Locate is not part of your subscription' },
    { path: '/locate/saved', heading: 'Locate', title: 'Locate is not part of your subscription' },
    {
      path: '/locate?type=keyword&keywords=crane',
      heading: 'Locate',
      title: 'Locate is not part of your subscription',
    },
    { path: '/beacon', heading: 'Beacon', title: 'Beacon is not part of your subscription' },
    { path: '/beacon/results?q=leak', heading: 'Beacon', title: 'Beacon is not part of your subscription' },
    { path: '/history', heading: 'Beacon', title: 'Beacon is not part of your subscription' },
  ])('$path says what the product does and whom to ask, and searches nothing', async ({ path, heading, title }) => {
    const requests = fakeServer({});
    renderApp(path, { profile: testProfile({ acl: noProducts }) });
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'support@example.test' })).toHaveAttribute(
      'href',
      'mailto:support@example.test',
    );
    expect(screen.queryByRole('search')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.path.startsWith('/beacon/v1/') || r.path.startsWith('/api/v1/locate/'))).toEqual(
      [],
    );
  });

  it.each([
    { path: '/locate', acl: { ...noProducts, enterprise: true } },
    { path: '/beacon', acl: { ...noProducts, beacon: true } },
  ])('$path is the product for a subscriber', async ({ path, acl }) => {
    fakeServer({});
    renderApp(path, { profile: testProfile({ acl }) });
    expect(await screen.findByRole('search')).toBeInTheDocument();
    expect(screen.queryByText(/is not part of your subscription/)).not.toBeInTheDocument();
  });
});
