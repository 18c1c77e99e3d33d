import { useTheme } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DisplayTheme } from '../api/settings';
import { profileQuery } from '../hooks/useProfileQuery';
import { createQueryClient } from '../queryClient';
import { testProfile } from '../test/fixtures';
import { AppThemeProvider } from './AppThemeProvider';

function Mode() {
  return <output aria-label="mode">{useTheme().palette.mode}</output>;
}

function prefersDark(dark: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: dark && query === '(prefers-color-scheme: dark)',
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
}

function renderMode(displayTheme: DisplayTheme | undefined) {
  const queryClient = createQueryClient();
  if (displayTheme) queryClient.setQueryData(profileQuery.queryKey, testProfile({ display_theme: displayTheme }));
  render(
    <QueryClientProvider client={queryClient}>
      <AppThemeProvider>
        <Mode />
      </AppThemeProvider>
    </QueryClientProvider>,
  );
  return screen.getByRole('status', { name: 'mode' }).textContent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('theme from the profile', () => {
  const cases: { displayTheme: DisplayTheme | undefined; systemDark: boolean; want: string }[] = [
    { displayTheme: 'light', systemDark: true, want: 'light' },
    { displayTheme: 'dark', systemDark: false, want: 'dark' },
    { displayTheme: 'system', systemDark: true, want: 'dark' },
    { displayTheme: 'system', systemDark: false, want: 'light' },
    // Before sign-in there is no profile: the system decides.
    { displayTheme: undefined, systemDark: true, want: 'dark' },
  ];
  for (const c of cases) {
    it(`${String(c.displayTheme)} with a ${c.systemDark ? 'dark' : 'light'} system is ${c.want}`, () => {
      prefersDark(c.systemDark);
      expect(renderMode(c.displayTheme)).toBe(c.want);
    });
  }
});
