import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MatchedTerms } from './MatchedTerms';

describe('MatchedTerms', () => {
  it('names each term and where the post holds it', () => {
    render(
      <MatchedTerms
        terms={[
          { term: 'flood', kind: 'word', field: 'title' },
          { term: '"bridge closed"', kind: 'phrase', field: 'text' },
          { term: '@riverwatch', kind: 'author', field: 'author' },
        ]}
      />,
    );
    const list = screen.getByRole('list', { name: 'Why it matched' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual([
      'Matched flood in the title',
      'Matched "bridge closed" in the text',
      'Matched @riverwatch in the author',
    ]);
  });

  it('shows nothing when the search has no terms to show', () => {
    const { container } = render(<MatchedTerms terms={[]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
