import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Suggestion } from '../../api/contracts.gen';
import { NoResults, SearchSuggestions } from './SearchSuggestions';

const user = userEvent.setup({ delay: null });

const suggestion = (term: string, replaces: string, count: number, countIsEstimate = false): Suggestion => ({
  term,
  replaces,
  query: term,
  count,
  countIsEstimate,
});

describe('Beacon empty state', () => {
  it('shows the server’s forms of the words with their counts, and a click searches with one', async () => {
    const onApply = vi.fn();
    render(
      <NoResults
        label="Social Media"
        suggestions={[suggestion('hospitals', 'hospital', 15), suggestion('hospital*', 'hospital', 1200, true)]}
        onApply={onApply}
      />,
    );
    expect(screen.getByRole('heading', { name: 'No posts in Social Media match' })).toBeInTheDocument();
    const forms = within(screen.getByRole('region', { name: 'Other forms of your words' }));
    expect(forms.getAllByRole('button').map((b) => b.textContent)).toEqual(['hospitals: 15', 'hospital*: about 1,200']);
    await user.click(forms.getByRole('button', { name: 'Search with hospitals instead of hospital (15 posts)' }));
    expect(onApply).toHaveBeenCalledWith('hospitals');
    expect(onApply).toHaveBeenCalledTimes(1);
  });

  it('says only what to try when there is nothing to suggest', () => {
    render(<NoResults label="Social Media" suggestions={[]} onApply={() => {}} />);
    expect(screen.getByText(/Try fewer or broader words/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Other forms of your words' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('offers the forms beside a few results too, changing nothing until clicked', async () => {
    const onApply = vi.fn();
    render(<SearchSuggestions suggestions={[suggestion('hospital', 'hospitl', 4)]} onApply={onApply} />);
    expect(onApply).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Search with hospital instead of hospitl (4 posts)' }));
    expect(onApply).toHaveBeenCalledWith('hospital');
  });
});
