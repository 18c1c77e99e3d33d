import FolderOutlined from '@mui/icons-material/FolderOutlined';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type SidebarPage, SidebarSection } from './SidebarSection';

function renderSection(props: { pages: SidebarPage[]; loading?: boolean; mini?: boolean }, path = '/monitor/groups') {
  const router = createMemoryRouter([{ path: '/monitor/*', element: <SidebarSection title="Groups" {...props} /> }], {
    initialEntries: [path],
  });
  render(<RouterProvider router={router} />);
  return within(screen.getByRole('list', { name: 'Groups' }));
}

const page = (label: string, to: string, unreadCount?: number): SidebarPage => ({
  label,
  to: `/monitor/${to}`,
  icon: FolderOutlined,
  unreadCount,
});

describe('sidebar section', () => {
  it('shows a five-row skeleton while loading with no pages', () => {
    const section = renderSection({ pages: [], loading: true });
    const skeleton = section.getByRole('status', { name: 'Loading Groups' });
    expect(skeleton.children).toHaveLength(5);
  });

  it('shows the pages it has even while more load', () => {
    const section = renderSection({ pages: [page('Threat actors', 'groups/1')], loading: true });
    expect(section.queryByRole('status')).not.toBeInTheDocument();
    expect(section.getByRole('link', { name: 'Threat actors' })).toBeInTheDocument();
  });

  it('marks the current page', () => {
    const section = renderSection({ pages: [page('All groups', 'groups'), page('Filters', 'filters')] });
    expect(section.getByRole('link', { name: 'All groups' })).toHaveAttribute('aria-current', 'page');
    expect(section.getByRole('link', { name: 'Filters' })).not.toHaveAttribute('aria-current');
  });

  it('shows unread badges formatted, and none at 0 or when unknown', () => {
    const section = renderSection({
      pages: [page('Busy', 'groups/1', 1_234), page('Quiet', 'groups/2', 0), page('Unknown', 'groups/3')],
    });
    expect(section.getByRole('link', { name: /Busy/ })).toHaveTextContent('1.2k');
    expect(section.getByRole('link', { name: 'Quiet' })).toHaveTextContent(/^Quiet$/);
    expect(section.getByRole('link', { name: 'Unknown' })).toHaveTextContent(/^Unknown$/);
  });

  it('explains an unread badge in its tooltip', async () => {
    const section = renderSection({ pages: [page('Busy', 'groups/1', 42)] });
    await userEvent.hover(section.getByRole('link', { name: /Busy/ }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Unread results: 42');
  });

  it('collapses and expands a page group', async () => {
    const group: SidebarPage = {
      ...page('Matches', 'matches'),
      pages: [page('Grid', 'matches/grid'), page('List', 'matches/list')],
    };
    const section = renderSection({ pages: [group] }, '/monitor/groups');
    const toggle = section.getByRole('button', { name: 'Matches' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(toggle);

    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(section.getByRole('link', { name: 'List' })).toBeVisible();
  });

  it('opens the group of the current page', () => {
    const group: SidebarPage = {
      ...page('Matches', 'matches'),
      pages: [page('Grid', 'matches/grid'), page('List', 'matches/list')],
    };
    const section = renderSection({ pages: [group] }, '/monitor/matches/list');
    expect(section.getByRole('button', { name: 'Matches' })).toHaveAttribute('aria-expanded', 'true');
    expect(section.getByRole('link', { name: 'List' })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps names for every icon in the mini variant', () => {
    const section = renderSection({ pages: [page('All groups', 'groups', 3)], mini: true });
    expect(section.getByRole('link', { name: 'All groups' })).toBeInTheDocument();
  });
});
