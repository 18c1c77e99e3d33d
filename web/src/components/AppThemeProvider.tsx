import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useMemo } from 'react';
import { useDisplayTheme } from '../hooks/useProfileQuery';
import { createAppTheme } from '../theme';

/** Applies the profile's light, dark or system theme; "system" follows prefers-color-scheme. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const displayTheme = useDisplayTheme();
  const systemPrefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const mode = displayTheme === 'system' ? (systemPrefersDark ? 'dark' : 'light') : displayTheme;
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}
