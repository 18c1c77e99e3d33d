import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { RelatedSearches } from './RelatedSearches';

const user = userEvent.setup({ delay: null });

describe('related searches', () => {
  it('lists the searches under a heading and asks the one chosen', async () => {
    const onSearch = vi.fn();
    renderWithApp(
      <RelatedSearches searches={['harbour strike terminal', 'harbour strike police']} onSearch={onSearch} />,
      { profile: testProfile() },
    );
    const section = await screen.findByRole('region', { name: 'Related searches' });
    const items = within(section).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['harbour strike terminal', 'harbour strike police']);
    await user.click(within(section).getByRole('button', { name: 'harbour strike police' }));
    expect(onSearch).toHaveBeenCalledWith('harbour strike police');
  });

  it('waits while a question is being answered', async () => {
    const onSearch = vi.fn();
    renderWithApp(<RelatedSearches searches={['harbour strike terminal']} onSearch={onSearch} disabled />, {
      profile: testProfile(),
    });
    const chip = await screen.findByRole('button', { name: 'harbour strike terminal' });
    expect(chip).toHaveAttribute('aria-disabled', 'true');
  });

  it('draws nothing when there are none', async () => {
    const { container } = renderWithApp(
      <div data-testid="host">
        <RelatedSearches searches={[]} onSearch={() => undefined} />
      </div>,
      { profile: testProfile() },
    );
    const host = await within(container).findByTestId('host');
    expect(host).toBeEmptyDOMElement();
  });
});
