import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useExternalLink } from '../hooks/useExternalLink';
import { readCookie } from '../lib/cookies';
import { testProfile } from '../test/fixtures';
import { renderWithApp } from '../test/renderApp';
import { SKIP_EXTERNAL_LINK_COOKIE } from './ExternalLinkProvider';

const user = userEvent.setup({ delay: null });
const url = 'https://example.com/r/1';

function OpenButton({ link = url }: { link?: string }) {
  const open = useExternalLink();
  return <button onClick={() => open(link)}>Open post</button>;
}

beforeEach(() => {
  vi.spyOn(window, 'open').mockReturnValue(null);
});

afterEach(() => {
  document.cookie = `${SKIP_EXTERNAL_LINK_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
});

describe('external-link dialog', () => {
  it('warns, copies, and opens the link in a new tab on Proceed', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithApp(<OpenButton />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Open post' }));
    const dialog = await screen.findByRole('dialog', { name: 'You are leaving Sightline' });
    expect(dialog).toHaveTextContent(url);
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(url);
    expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
    expect(window.open).toHaveBeenCalledWith(url, '_blank', 'noopener,noreferrer');
  });

  it('remembers "Do not show again" and then opens links at once', async () => {
    renderWithApp(<OpenButton />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Open post' }));
    const dialog = await screen.findByRole('dialog', { name: 'You are leaving Sightline' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Do not show again' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(readCookie(SKIP_EXTERNAL_LINK_COOKIE)).toBe('1');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Open post' }));
    expect(window.open).toHaveBeenCalledWith(url, '_blank', 'noopener,noreferrer');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('always asks in organizations compliant with US-persons rules', async () => {
    document.cookie = `${SKIP_EXTERNAL_LINK_COOKIE}=1; path=/`;
    const profile = testProfile();
    profile.organization.is_uspi_compliant = true;
    renderWithApp(<OpenButton />, { profile });
    await user.click(screen.getByRole('button', { name: 'Open post' }));
    const dialog = await screen.findByRole('dialog', { name: 'You are leaving Sightline' });
    expect(within(dialog).queryByRole('checkbox', { name: 'Do not show again' })).not.toBeInTheDocument();
  });

  it.each(['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', '/logout', 'vbscript:x'])(
    'neither offers nor opens %s',
    async (link) => {
      renderWithApp(<OpenButton link={link} />, { profile: testProfile() });
      await user.click(screen.getByRole('button', { name: 'Open post' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(window.open).not.toHaveBeenCalled();
    },
  );

  it('does not open such a link when the warning is skipped either', async () => {
    document.cookie = `${SKIP_EXTERNAL_LINK_COOKIE}=1; path=/`;
    const profile = testProfile();
    profile.organization.is_uspi_compliant = false;
    renderWithApp(<OpenButton link="javascript:alert(1)" />, { profile });
    await user.click(screen.getByRole('button', { name: 'Open post' }));
    expect(window.open).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
