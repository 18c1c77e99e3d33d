import { alpha, createTheme, type Theme } from '@mui/material/styles';

declare module '@mui/material/styles' {
  interface Palette {
    rail: { background: string; text: string; selected: string };
  }
  interface PaletteOptions {
    rail?: { background: string; text: string; selected: string };
  }
}

export const TOP_BAR_HEIGHT = 64;
export const RAIL_WIDTH = 84;

const fontFamily = '"Inter Variable", "Inter", "Roboto", "Helvetica Neue", Arial, sans-serif';

/** Sightline's one Material theme, in its light or dark variant. */
export function createAppTheme(mode: 'light' | 'dark'): Theme {
  const light = mode === 'light';
  const primary = light ? '#2f5bea' : '#8ea8ff';
  return createTheme({
    palette: {
      mode,
      primary: { main: primary },
      // MUI's light orange carries white text at 3.1:1 (a badge on every screen, issue 28); dark
      // text on it reads at 6.7:1.
      ...(light && { warning: { main: '#ed6c02', contrastText: '#111827' } }),
      // MUI's light blue carries white text at 3.9:1 (a source's "Starting" chip); this one at 4.8:1.
      ...(light && { info: { main: '#0277bd' } }),
      // MUI's dark red carries white text at 3.7:1 (a failing source's chip); dark text at 4.8:1.
      ...(!light && { error: { main: '#f44336', contrastText: '#111827' } }),
      secondary: { main: light ? '#0f9d8a' : '#5fd4c2' },
      background: light ? { default: '#f4f6fb', paper: '#ffffff' } : { default: '#0d1117', paper: '#151b24' },
      divider: light ? 'rgba(15, 23, 42, 0.09)' : 'rgba(226, 232, 240, 0.10)',
      text: light ? { primary: '#111827', secondary: '#525d70' } : { primary: '#e6e9ef', secondary: '#9aa4b5' },
      // The rail is dark in both modes so the product areas read as the app's frame.
      rail: { background: light ? '#0f1b33' : '#0a0f18', text: 'rgba(226, 232, 240, 0.78)', selected: primary },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily,
      h1: { fontSize: '2rem', fontWeight: 700, letterSpacing: '-0.02em' },
      h2: { fontSize: '1.5rem', fontWeight: 700, letterSpacing: '-0.01em' },
      h3: { fontSize: '1.25rem', fontWeight: 650 },
      h4: { fontSize: '1.125rem', fontWeight: 650 },
      h5: { fontSize: '1rem', fontWeight: 650 },
      h6: { fontSize: '0.9375rem', fontWeight: 650 },
      overline: { fontWeight: 650, letterSpacing: '0.08em' },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiCssBaseline: {
        styleOverrides: { body: { WebkitFontSmoothing: 'antialiased' } },
      },
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiAppBar: { defaultProps: { elevation: 0, color: 'inherit' } },
      MuiPaper: {
        styleOverrides: {
          outlined: ({ theme }) => ({ borderColor: theme.palette.divider }),
        },
      },
      MuiTooltip: { defaultProps: { arrow: true } },
      // MUI's default label grey falls under 4.5:1 on a hovered toggle; the secondary text keeps it.
      MuiToggleButton: {
        styleOverrides: { root: ({ theme }) => ({ color: theme.palette.text.secondary }) },
      },
      MuiListItemButton: {
        styleOverrides: {
          root: ({ theme }) => ({
            borderRadius: theme.shape.borderRadius,
            '&.Mui-selected': {
              backgroundColor: alpha(theme.palette.primary.main, light ? 0.1 : 0.16),
              color: theme.palette.primary.main,
              '& .MuiListItemIcon-root': { color: theme.palette.primary.main },
            },
          }),
        },
      },
      MuiListItemIcon: { styleOverrides: { root: { minWidth: 36 } } },
    },
  });
}
