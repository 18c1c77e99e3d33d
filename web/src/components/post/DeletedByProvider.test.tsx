import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { DeletedByProvider } from './DeletedByProvider';

describe('the deleted-by-the-provider state', () => {
  it.each([
    { name: 'says so for a deleted post, with when the deletion was seen', deletedAt: '2026-11-25T06:00:00Z', shown: true },
    { name: 'is absent while the provider has the post', deletedAt: undefined, shown: false },
  ])('$name', async ({ deletedAt, shown }) => {
    renderWithApp(
      <>
        <span>rendered</span>
        <DeletedByProvider post={{ deletedAt }} />
      </>,
      { profile: testProfile() },
    );
    await screen.findByText('rendered');
    if (!shown) {
      expect(screen.queryByText('Post deleted by the provider')).not.toBeInTheDocument();
      return;
    }
    expect(screen.getByText('Post deleted by the provider')).toBeVisible();
    expect(screen.getByText(/Kept as it was collected/)).toBeVisible();
    expect(document.querySelector('time')).toHaveAttribute('dateTime', '2026-11-25T06:00:00.000Z');
  });
});
