import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testMatch, testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { UsPersonsMarker } from './UsPersonsMarker';

function profile(compliant: boolean) {
  const p = testProfile();
  return { ...p, organization: { ...p.organization, is_uspi_compliant: compliant } };
}

describe('the US-persons marker', () => {
  it('marks a US post for a compliant organization', async () => {
    renderWithApp(<UsPersonsMarker post={{ ...testMatch(1).post, uspi: true }} />, { profile: profile(true) });
    expect(await screen.findByText('US persons')).toBeVisible();
  });

  it('is not shown to other organizations, nor on other posts', async () => {
    const { unmount } = renderWithApp(
      <>
        <span>rendered</span>
        <UsPersonsMarker post={{ ...testMatch(1).post, uspi: true }} />
      </>,
      { profile: profile(false) },
    );
    await screen.findByText('rendered');
    expect(screen.queryByText('US persons')).not.toBeInTheDocument();
    unmount();
    renderWithApp(
      <>
        <span>rendered</span>
        <UsPersonsMarker post={{ ...testMatch(1).post, uspi: false }} />
      </>,
      { profile: profile(true) },
    );
    await screen.findByText('rendered');
    expect(screen.queryByText('US persons')).not.toBeInTheDocument();
  });
});
