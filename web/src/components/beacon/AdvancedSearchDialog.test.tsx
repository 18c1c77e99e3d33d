import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { newSearch } from '../../lib/beaconSearch';
import { fromLocalInput } from '../../lib/dateRange';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { AdvancedSearchDialog } from './AdvancedSearchDialog';

const user = userEvent.setup({ delay: null });

describe('the advanced search', () => {
  it('bounds the date crawled, saying what it is by default and how long posts are kept', async () => {
    const onSearch = vi.fn();
    renderWithApp(
      <AdvancedSearchDialog open current={newSearch('leak')} onClose={() => undefined} onSearch={onSearch} />,
      { profile: testProfile({ retentionDays: 90 }) },
    );
    expect(
      screen.getByText('The past two years unless you say otherwise. Posts are kept 90 days.'),
    ).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Crawled from'), { target: { value: '2026-11-20T08:00' } });
    fireEvent.change(screen.getByLabelText('Crawled until'), { target: { value: '2026-11-01T08:00' } });
    expect(screen.getByText('The end must be after the start.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();

    fireEvent.change(screen.getByLabelText('Crawled until'), { target: { value: '' } });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith(
      expect.objectContaining({
        query: 'leak',
        crawledFrom: fromLocalInput('2026-11-20T08:00')!.getTime(),
        crawledTo: undefined,
      }),
    );
  });
});
